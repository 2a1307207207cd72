import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { PACKAGE_ROOT } from './version.js'

const require = createRequire(import.meta.url)

/**
 * A package from its one-file build in dist/vendor (scripts/bundle.mjs), compiled with a V8 code
 * cache. Required from node_modules instead, a package of many CommonJS files is read and
 * compiled from source file by file: yaml's ~70 files cost a start ~25 ms. Without a build (the
 * sources under test), `fallback` loads the package itself.
 */
export function requireVendor<T>(file: string, fallback: () => T): T {
  const path = join(PACKAGE_ROOT, 'dist', 'vendor', file)
  if (!existsSync(path)) return fallback()
  const { requireCached } = require(join(PACKAGE_ROOT, 'bin', 'code-cache.cjs')) as { requireCached(file: string): unknown }
  return requireCached(path) as T
}
