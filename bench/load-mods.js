// Measures loading a distribution of 20 small TS mods in a fresh process, after `npm run build`.
// cold: an empty transpile cache (every mod is transpiled); warm: the cache the cold run left.
// The child imports the library as an embedder does (`import { loadDistribution } from 'modloop'`),
// reported apart, then times loadDistribution: finding the config, jiti, transpiling, importing,
// validating options and registering every mod.
// Run directly (`node bench/load-mods.js`) or import `benchLoadMods()`.
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'

const MODS = 20
const RUNS = 5
const bin = fileURLToPath(new URL('../bin/modloop.cjs', import.meta.url))
const loaderUrl = new URL('../dist/index.js', import.meta.url).href

const modSource = (i) => `import { defineMod, type On } from 'modloop'
import { z } from 'zod'

const options = z.object({ level: z.number().int().min(0).default(${i}), label: z.string().optional() })

export default defineMod({
  name: 'bench-${i}',
  options,
  register(on: On, opts: z.output<typeof options>) {
    on('tool.call', async ($, e, next) => (opts.level > 1000 ? { deny: 'never' } : next(e)))
  },
})
`

// The child times only what loading costs: importing the loader, then loadDistribution itself.
const childSource = `
const t0 = performance.now()
const { loadDistribution } = await import(${JSON.stringify(loaderUrl)})
const t1 = performance.now()
const { host, errors } = await loadDistribution({ cwd: process.argv[1] })
const t2 = performance.now()
if (errors.length > 0 || host.list().length !== ${MODS}) {
  console.error(errors.map((e) => e.message).join('\\n') || 'loaded ' + host.list().length + ' mods')
  process.exit(1)
}
console.log(JSON.stringify({ importMs: t1 - t0, loadMs: t2 - t1 }))
`

async function makeProject() {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-bench-')))
  await mkdir(join(dir, 'mods'))
  const specs = []
  for (let i = 1; i <= MODS; i++) {
    await writeFile(join(dir, 'mods', `mod-${i}.ts`), modSource(i))
    specs.push([`./mods/mod-${i}.ts`, { level: i }])
  }
  await writeFile(join(dir, 'modloop.config.json'), JSON.stringify({ mods: specs }))
  await writeFile(join(dir, 'child.mjs'), childSource)
  return dir
}

async function runChild(dir, cacheDir) {
  const { stdout } = await promisify(execFile)(process.execPath, [join(dir, 'child.mjs'), dir], {
    env: { ...process.env, MODLOOP_MOD_CACHE: process.env.BENCH_NO_CACHE ? "0" : cacheDir },
  })
  return JSON.parse(stdout)
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** Wall time of one whole process, spawn to exit. */
async function wall(args, cwd, env = {}) {
  const start = performance.now()
  await promisify(execFile)(process.execPath, args, { cwd, env: { ...process.env, ...env } })
  return performance.now() - start
}

export async function benchLoadMods() {
  const dir = await makeProject()
  try {
    const cold = []
    const warm = []
    const cli = []
    const node = []
    for (let run = 0; run < RUNS; run++) {
      const cacheDir = join(dir, `cache-${run}`)
      cold.push(await runChild(dir, cacheDir))
      warm.push(await runChild(dir, cacheDir))
      // The whole CLI with an empty transpile cache, beside a bare node start on the same machine.
      cli.push(await wall([bin, 'mods', 'list'], dir, { MODLOOP_MOD_CACHE: join(dir, `cli-cache-${run}`) }))
      node.push(await wall(['-e', ''], dir))
    }
    return {
      coldMs: median(cold.map((r) => r.loadMs)),
      warmMs: median(warm.map((r) => r.loadMs)),
      importMs: median(cold.map((r) => r.importMs)),
      cliMs: median(cli),
      nodeMs: median(node),
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const r = await benchLoadMods()
  console.log(`load ${MODS} TS mods (cold): ${r.coldMs.toFixed(0)} ms`)
  console.log(`load ${MODS} TS mods (warm transpile cache): ${r.warmMs.toFixed(0)} ms`)
  console.log(`  import of the library itself (${fileURLToPath(loaderUrl)}): ${r.importMs.toFixed(0)} ms; medians of ${RUNS} runs`)
  console.log(`  \`modloop mods list\` of those mods, whole process, empty transpile cache: ${r.cliMs.toFixed(0)} ms (\`node -e ''\` alone: ${r.nodeMs.toFixed(0)} ms)`)
}
