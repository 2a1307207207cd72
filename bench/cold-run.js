// Cold `modloop -p` one-turn run against the fake server on loopback: process start to exit, and
// peak RSS (from /usr/bin/time when present). The distribution is the default one, in an empty dir.
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startFakeAnthropic } from '../dist/testing/fake-anthropic.js'

const RUNS = 7
const bin = fileURLToPath(new URL('../bin/modloop.cjs', import.meta.url))
const cwd = mkdtempSync(join(tmpdir(), 'modloop-cold-'))
const server = await startFakeAnthropic({ script: Array.from({ length: RUNS + 4 }, () => ({ reply: 'Hello from the fake server.' })) })
const env = { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'bench' }
const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined

/** One run; `measureRss` wraps it in /usr/bin/time, whose own fork and exec add ~25 ms, so timed runs go without it. */
function once(measureRss = false) {
  const start = performance.now()
  // The fake server lives in this process, so the child runs asynchronously.
  return new Promise((resolve, reject) => {
    import('node:child_process').then(({ spawn }) => {
      const wrap = measureRss && timeBin
      const args = wrap ? ['-f', '%M', process.execPath, bin, '-p', 'hi'] : [bin, '-p', 'hi']
      const child = spawn(wrap ? timeBin : process.execPath, args, { cwd, env })
      let out = ''
      let err = ''
      child.stdout.on('data', (d) => (out += d))
      child.stderr.on('data', (d) => (err += d))
      child.on('close', (code) => {
        const ms = performance.now() - start
        if (code !== 0 || !out.includes('Hello')) return reject(new Error(`run failed (${code}): ${out}${err}`))
        const kb = wrap ? Number(err.trim().split('\n').at(-1)) : NaN
        resolve({ ms, rssMiB: kb / 1024 })
      })
    })
  })
}

// The first run after a build writes the CLI's code cache; it is reported apart.
const first = await once()
// A cache rewritten after the first run was rejected: every run then compiled the bundle anew.
const bundleDir = fileURLToPath(new URL('../dist/bin/', import.meta.url))
const cacheId = () => readdirSync(bundleDir).filter((n) => n.endsWith('.cache')).map((n) => `${n}:${statSync(bundleDir + n).ino}`).join()
const cacheAfterFirst = cacheId()
const runs = []
for (let i = 0; i < RUNS; i++) runs.push(await once())
if (cacheId() !== cacheAfterFirst) console.log('warning: the CLI code cache was rewritten between runs (rejected), so these runs compiled the bundle from scratch')
const rssRuns = []
for (let i = 0; i < 3; i++) rssRuns.push(await once(true))
await server.close()
rmSync(cwd, { recursive: true, force: true })
const ms = runs.map((r) => r.ms).sort((a, b) => a - b)
const rss = rssRuns.map((r) => r.rssMiB).sort((a, b) => a - b)
console.log(`cold modloop -p one-turn run: ${ms[Math.floor(RUNS / 2)].toFixed(0)} ms wall (median of ${RUNS}; min ${ms[0].toFixed(0)}; the first run ${first.ms.toFixed(0)} ms), peak RSS ${Number.isNaN(rss[0]) ? 'n/a' : `${rss.at(-1).toFixed(1)} MiB (max of ${rss.length})`}`)
