// Cold `modloop -p` one-turn run against the fake server on loopback: process start to exit, and
// peak RSS (from /usr/bin/time when present). The distribution is the default one, in an empty dir.
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startFakeAnthropic } from '../dist/testing/fake-anthropic.js'

const RUNS = 7
const bin = fileURLToPath(new URL('../bin/modloop.js', import.meta.url))
const cwd = mkdtempSync(join(tmpdir(), 'modloop-cold-'))
const server = await startFakeAnthropic({ script: Array.from({ length: RUNS + 1 }, () => ({ reply: 'Hello from the fake server.' })) })
const env = { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'bench' }
const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined

function once() {
  const start = performance.now()
  // The fake server lives in this process, so the child runs asynchronously.
  return new Promise((resolve, reject) => {
    import('node:child_process').then(({ spawn }) => {
      const args = timeBin ? ['-f', '%M', process.execPath, bin, '-p', 'hi'] : [bin, '-p', 'hi']
      const child = spawn(timeBin ?? process.execPath, args, { cwd, env })
      let out = ''
      let err = ''
      child.stdout.on('data', (d) => (out += d))
      child.stderr.on('data', (d) => (err += d))
      child.on('close', (code) => {
        const ms = performance.now() - start
        if (code !== 0 || !out.includes('Hello')) return reject(new Error(`run failed (${code}): ${out}${err}`))
        const kb = timeBin ? Number(err.trim().split('\n').at(-1)) : NaN
        resolve({ ms, rssMiB: kb / 1024 })
      })
    })
  })
}

await once()
const runs = []
for (let i = 0; i < RUNS; i++) runs.push(await once())
await server.close()
rmSync(cwd, { recursive: true, force: true })
const ms = runs.map((r) => r.ms).sort((a, b) => a - b)
const rss = runs.map((r) => r.rssMiB).sort((a, b) => a - b)
console.log(`cold modloop -p one-turn run: ${ms[Math.floor(RUNS / 2)].toFixed(0)} ms wall (median of ${RUNS}), peak RSS ${Number.isNaN(rss[0]) ? 'n/a' : `${rss[Math.floor(RUNS / 2)].toFixed(1)} MiB`}`)
