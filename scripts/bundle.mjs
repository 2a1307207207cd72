// Bundles the CLI into dist/bin/: a cold start then loads a few files instead of ~500 ES modules
// (the Anthropic SDK alone is ~400), which is most of the start-up time. Dynamic imports stay
// lazy as split chunks. jiti, sucrase and cosmiconfig stay external: they load only when needed.
import { build } from 'esbuild'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
// Chunk names carry content hashes: clear the old ones so dist/bin holds one build.
rmSync(join(root, 'dist', 'bin'), { recursive: true, force: true })
await build({
  absWorkingDir: root,
  entryPoints: { main: 'dist/cli/main.js' },
  outdir: 'dist/bin',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['jiti', 'sucrase', 'cosmiconfig'],
  // Less text to parse at start-up; names are kept, so errors still read.
  minifyWhitespace: true,
  minifySyntax: true,
  // CommonJS dependencies inside an ES module bundle still call require() for Node built-ins.
  banner: { js: "import { createRequire as __modloopRequire } from 'node:module'; const require = __modloopRequire(import.meta.url);" },
  logLevel: 'warning',
})

// sucrase (the mod transpiler) as one file: ~100 CommonJS modules cost 2-3x more to load than one.
await build({
  absWorkingDir: root,
  stdin: { contents: "module.exports = require('sucrase')", resolveDir: root },
  outfile: 'dist/vendor/sucrase.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
})
