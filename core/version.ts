import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** modloop's own package directory: one level above core/ in source, two in dist/. */
function findRoot(): { root: string; version: string } {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (let i = 0; i < 4; i++) {
    dir = dirname(dir)
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string }
      if (pkg.name === 'modloop') return { root: dir, version: pkg.version ?? '0.0.0' }
    } catch {
      // not at this depth
    }
  }
  return { root: dirname(dirname(fileURLToPath(import.meta.url))), version: '0.0.0' }
}

const found = findRoot()
export const VERSION = found.version
export const PACKAGE_ROOT = found.root
