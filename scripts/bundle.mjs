// Bundles the CLI into one CommonJS file, dist/bin/main.cjs: a cold start then reads one file
// instead of ~500 ES modules (the Anthropic SDK alone is ~400), and bin/modloop.cjs can compile it
// with a V8 code cache (bin/code-cache.cjs), which ES modules cannot take on Node 20. The file is
// the module body already wrapped in Node's module function, so it is compiled as it stands
// (wrapping 2 MB of source at run time keeps a second copy: ~3 MiB more peak memory); it is not
// loadable with require(). Packages that only some sessions use stay out of it (see VENDOR): the
// bundle's source text stays in memory for the whole run, so lazily used code kept in it would
// be paid for in peak memory by every run. jiti and sucrase stay external: they load only when
// needed (sucrase from a one-file build of its own).
import { build } from 'esbuild'
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import Module, { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { fastNamespaces } from './fast-namespaces.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))

// `--if-stale` (npm test): nothing to do while the bundle is newer than its sources, the lockfile
// and the build scripts (scripts/stale.cjs, as `npm start` asks). A clean clone's `npm ci` has just
// built it (~3.6 s saved); a run after an edit bundles again.
if (process.argv.includes('--if-stale') && !createRequire(import.meta.url)('./stale.cjs').isStale(root)) process.exit(0)

// Lazily used packages, each group one file dist/vendor/<group>.cjs loaded on first use. A group
// shares the dependencies of its packages (string-width, ansi helpers, zod for the MCP SDK).
const VENDOR = {
  terminal: ['marked', 'marked-terminal', 'chalk', 'cli-truncate', 'string-width'],
  mcp: [
    '@modelcontextprotocol/sdk/client/index.js',
    '@modelcontextprotocol/sdk/client/sse.js',
    '@modelcontextprotocol/sdk/client/stdio.js',
    '@modelcontextprotocol/sdk/client/streamableHttp.js',
    '@modelcontextprotocol/sdk/inMemory.js',
    '@modelcontextprotocol/sdk/server/mcp.js',
    '@modelcontextprotocol/sdk/types.js',
  ],
  ajv: ['ajv'],
  acp: ['@agentclientprotocol/sdk'],
  yaml: ['yaml'],
  // Config files: a project or a distribution with one. From node_modules, its ~10 files compiled
  // from source cost a start ~25 ms.
  cosmiconfig: ['cosmiconfig'],
  diff: ['diff'],
  ignore: ['ignore'],
  html: ['node-html-markdown'],
  // The Postgres client and the job queue: only the fleet commands and a Postgres session store load them.
  fleet: ['pg', 'pg-boss'],
  // Grep's engine when ripgrep is missing.
  re2js: ['re2js'],
  // Read's coders for an image it shrinks, and its PDF reader.
  image: ['pngjs', 'jpeg-js'],
  pdf: ['@pdfme/pdf-lib'],
  // The model client's proxy agents: only a run with a proxy variable set loads them.
  proxy: ['http-proxy-agent', 'https-proxy-agent'],
}

// The export names Node gives each package, so the stand-in module in the bundle exports the same.
const exportNames = new Map()
for (const spec of Object.values(VENDOR).flat()) exportNames.set(spec, Object.keys(await import(spec)))

// Every file of dist/bin and dist/vendor is loaded by bin/code-cache.cjs with a V8 code cache: a
// CommonJS body already wrapped in Node's module function, ASCII only (esbuild's default charset),
// so V8 compiles the text as read. Such a file is not loadable with require().
const CACHED_CJS = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  banner: { js: Module.wrapper[0] },
  footer: { js: Module.wrapper[1] },
  // A script compiled from a code cache has no dynamic-import callback on Node 20: import() becomes require().
  supported: { 'dynamic-import': false },
}

// cosmiconfig requires node:crypto at its top, for its TypeScript loader's temporary file names
// (modloop loads .ts configs with jiti): a stand-in that loads it on first use saves a start with
// a config ~5 ms.
const lazyCryptoPlugin = {
  name: 'modloop-lazy-crypto',
  setup(b) {
    b.onResolve({ filter: /^crypto$/ }, () => ({ path: 'crypto', namespace: 'modloop-lazy-crypto' }))
    b.onLoad({ filter: /.*/, namespace: 'modloop-lazy-crypto' }, () => ({
      loader: 'js',
      contents: "let crypto\nmodule.exports = new Proxy({}, { get: (_, key) => (crypto ??= require('node:crypto'))[key] })",
    }))
  },
}

rmSync(join(root, 'dist', 'bin'), { recursive: true, force: true })
for (const [group, specs] of Object.entries(VENDOR)) {
  // A .mjs stdin gets Node's interop for CommonJS packages (default = module.exports).
  const contents = specs.map((s, i) => `import * as p${i} from ${JSON.stringify(s)}; export { p${i} }`).join('\n')
  await build({
    absWorkingDir: root,
    stdin: { contents, resolveDir: root, sourcefile: `vendor-${group}.mjs` },
    outfile: `dist/vendor/${group}.cjs`,
    ...CACHED_CJS,
    // cosmiconfig's TypeScript loader requires the compiler; modloop loads .ts configs with jiti.
    external: ['typescript'],
    plugins: group === 'cosmiconfig' ? [lazyCryptoPlugin] : [],
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
  })
}

// zod's ~40 locales (~250 KB), of which English is built in: `z.locales` stays whole for mods, each
// locale a function that loads the group on its first call.
await build({
  absWorkingDir: root,
  stdin: { contents: "export * as p0 from 'zod/v4/locales'", resolveDir: root, sourcefile: 'vendor-zod-locales.mjs' },
  outfile: 'dist/vendor/zod-locales.cjs',
  ...CACHED_CJS,
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
})
const localeNames = Object.keys(await import('zod/v4/locales'))
const zodLocalesPlugin = {
  name: 'modloop-zod-locales',
  setup(b) {
    b.onResolve({ filter: /.*/, namespace: 'modloop-zod-locales' }, (args) => ({ path: args.path, external: true }))
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (/[\\/]zod[\\/]v4[\\/](classic|core|mini)[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'modloop-zod-locales' } : undefined))
    b.onLoad({ filter: /.*/, namespace: 'modloop-zod-locales' }, () => ({
      loader: 'js',
      contents: [
        "let ns\nconst load = () => (ns ??= require('../../bin/code-cache.cjs').requireCached(require('node:path').join(__dirname, '..', 'vendor', 'zod-locales.cjs')).p0)",
        ...localeNames.map((n) => `export function ${n}(...args) { return load().${n}(...args) }`),
      ].join('\n'),
    }))
  },
}

// fdir (tinyglobby's crawler) requires picomatch at its top level through createRequire, which
// the bundle cannot see: each first glob then compiled picomatch from node_modules, from source,
// though the bundle holds it (tinyglobby imports it) and tinyglobby never uses fdir's copy. The
// bundle gives fdir its own picomatch; the build fails if fdir's line changes.
const FDIR_PICOMATCH = /__require\.resolve\("picomatch"\);\s*pm = __require\("picomatch"\);/
const fdirPlugin = {
  name: 'modloop-fdir-picomatch',
  setup(b) {
    b.onLoad({ filter: /[\\/]fdir[\\/]dist[\\/]index\.mjs$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8')
      if (!FDIR_PICOMATCH.test(source)) throw new Error(`${args.path}: fdir no longer requires picomatch as scripts/bundle.mjs expects; look again at fdirPlugin`)
      return { contents: `import __bundledPicomatch from 'picomatch'\n${source.replace(FDIR_PICOMATCH, 'pm = __bundledPicomatch;')}`, loader: 'js' }
    })
  },
}

const vendorOf = new Map(Object.entries(VENDOR).flatMap(([group, specs]) => specs.map((s, i) => [s, { group, index: i }])))
const vendorPlugin = {
  name: 'modloop-vendor',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.namespace === 'modloop-vendor') return { path: args.path, external: true }
      return vendorOf.has(args.path) ? { path: args.path, namespace: 'modloop-vendor' } : undefined
    })
    // A stand-in ES module: required when its importer first runs, so a dynamic import stays lazy.
    b.onLoad({ filter: /.*/, namespace: 'modloop-vendor' }, (args) => {
      const { group, index } = vendorOf.get(args.path)
      const names = exportNames.get(args.path)
      const named = names.filter((n) => n !== 'default' && n !== '__esModule')
      const lines = [`const ns = require('../../bin/code-cache.cjs').requireCached(require('node:path').join(__dirname, '..', 'vendor', ${JSON.stringify(`${group}.cjs`)})).p${index}`]
      if (named.length) lines.push(`export const { ${named.join(', ')} } = ns`)
      if (names.includes('default')) lines.push('export default ns.default')
      return { contents: lines.join('\n'), loader: 'js' }
    })
  },
}

await build({
  absWorkingDir: root,
  entryPoints: { main: 'dist/cli/main.js' },
  outdir: 'dist/bin',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['jiti', 'sucrase'],
  plugins: [vendorPlugin, zodLocalesPlugin, fdirPlugin],
  // The SDK's Headers, FormData and ReadableStream without loading them (see the file).
  inject: ['scripts/fetch-globals-inject.mjs'],
  // import() of an external becomes require(): a script compiled from a V8 code cache loses its
  // dynamic-import callback on Node 20 ("A dynamic import callback was not specified").
  supported: { 'dynamic-import': false },
  // Less text to parse at start-up; names are kept, so errors still read.
  minifyWhitespace: true,
  minifySyntax: true,
  // The bundle sits where the ES modules' chunks sat (dist/bin), so paths found from it still hold.
  // globalThis.ReadableStream is a stand-in that loads Node's web streams only for a real stream
  // (see the inject file).
  define: { 'import.meta.url': '__modloopUrl', 'globalThis.ReadableStream': '__lazyReadableStream' },
  banner: { js: `${Module.wrapper[0]}const __modloopUrl = require('node:url').pathToFileURL(__filename).href;` },
  footer: { js: Module.wrapper[1] },
  logLevel: 'warning',
})

// sucrase (the mod transpiler) as one file: ~100 CommonJS modules cost 2-3x more to load than one.
await build({
  absWorkingDir: root,
  stdin: { contents: "module.exports = require('sucrase')", resolveDir: root },
  outfile: 'dist/vendor/sucrase.cjs',
  ...CACHED_CJS,
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
})

// ES module namespaces built in V8's dictionary mode (see the file), before any code cache is made.
for (const dir of ['bin', 'vendor']) {
  for (const name of readdirSync(join(root, 'dist', dir)).filter((n) => n.endsWith('.cjs'))) {
    const file = join(root, 'dist', dir, name)
    writeFileSync(file, fastNamespaces(readFileSync(file, 'latin1'), file), 'latin1')
  }
}

// The CLI's code cache is written by the first run that finds none, and kept while it is taken.
// A first run of `modloop --version` would leave a cache of its few functions for good, and every
// later session would compile the rest again (~20 ms a cold -p run). So the build makes the cache
// itself: a one-turn session that reads a file, through the real SDK against the fake Messages
// API on loopback, uses the functions a session uses.
{
  const { startFakeAnthropic } = await import('../dist/testing/fake-anthropic.js')
  const warm = mkdtempSync(join(tmpdir(), 'modloop-warm-'))
  const server = await startFakeAnthropic({ script: [
    { reply: [{ tool_use: { name: 'Read', input: { file_path: join(warm, 'notes.txt') } } }] },
    { reply: 'Done.' },
  ] })
  try {
    writeFileSync(join(warm, 'notes.txt'), 'warm\n')
    const env = { ...process.env, MODLOOP_HOME: join(warm, 'home'), HOME: warm, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'warm-up' }
    const child = spawn(process.execPath, [join(root, 'bin', 'modloop.cjs'), '-p', 'read notes.txt'], { cwd: warm, env, stdio: ['ignore', 'ignore', 'pipe'] })
    let err = ''
    child.stderr.on('data', (d) => (err += d))
    const code = await new Promise((resolve) => child.on('close', resolve))
    // A failed warm-up only costs the cache it would have made: the first real run makes one.
    if (code !== 0) console.warn(`bundle: the code-cache warm-up run failed (${code}): ${err.trim().split('\n').at(-1)}`)
  } finally {
    await server.close()
    rmSync(warm, { recursive: true, force: true })
  }
}
