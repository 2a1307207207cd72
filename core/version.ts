import { createRequire } from 'node:module'

/** modloop's version, read from package.json (one level above core/ in source, two in dist/). */
function readVersion(): string {
  const require = createRequire(import.meta.url)
  for (const candidate of ['../package.json', '../../package.json']) {
    try {
      const pkg = require(candidate) as { name?: string; version?: string }
      if (pkg.name === 'modloop' && pkg.version) return pkg.version
    } catch {
      // not at this depth
    }
  }
  return '0.0.0'
}

export const VERSION = readVersion()
