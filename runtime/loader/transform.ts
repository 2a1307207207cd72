import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { TransformOptions, TransformResult } from 'jiti'
import { requireVendor } from '../../core/vendor.js'

const require = createRequire(import.meta.url)
type Sucrase = typeof import('sucrase')
let sucrase: Sucrase | undefined
let babel: ((opts: TransformOptions) => TransformResult) | undefined

// A line at column 0 that awaits: top-level await, which a CommonJS transform cannot express.
const TOP_LEVEL_AWAIT = /^(?![\s}/*])[^\n]*\bawait\b/m

/**
 * jiti's transform: sucrase strips types and turns imports into requires in about a millisecond
 * per file, where babel costs ~100 ms to load and ~10 ms per mod. Babel (jiti's own) still takes
 * what sucrase cannot: top-level await, and files sucrase rejects — babel's error then names the
 * file and line.
 */
export function transform(opts: TransformOptions): TransformResult {
  if (!TOP_LEVEL_AWAIT.test(opts.source)) {
    try {
      sucrase ??= loadSucrase()
      const transforms: ('typescript' | 'imports' | 'jsx')[] = opts.ts ? ['typescript', 'imports'] : ['imports']
      if (opts.jsx) transforms.push('jsx')
      return { code: sucrase.transform(opts.source, { transforms, filePath: opts.filename, production: true }).code }
    } catch {
      // fall through to babel, whose error message names the file and line
    }
  }
  babel ??= require(join(dirname(require.resolve('jiti')), '..', 'dist', 'babel.cjs')) as (opts: TransformOptions) => TransformResult
  return babel(opts)
}

/**
 * The build's one-file copy of sucrase (scripts/bundle.mjs), run with a V8 code cache: parsing and
 * compiling it is most of what a first transform costs. Without a build, the package itself.
 */
const loadSucrase = (): Sucrase => requireVendor('sucrase.cjs', () => require('sucrase') as Sucrase)
