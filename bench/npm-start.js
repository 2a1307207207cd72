// `npm start` with an up-to-date build: from the command to the demo's first line on stdout. The
// build step (scripts/build-if-stale.mjs) only checks modification times then; a run that found
// the build stale rebuilt, and its figure says so.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { median, row } from './lib/rows.js'

const RUNS = Number(process.env.BENCH_RUNS_START || 3)
const root = fileURLToPath(new URL('..', import.meta.url))
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

function once() {
  const start = performance.now()
  return new Promise((resolve, reject) => {
    const child = spawn(npm, ['start', '--silent'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    let firstLine
    child.stdout.on('data', (d) => {
      out += d
      if (firstLine === undefined && out.includes('\n')) firstLine = performance.now() - start
    })
    child.stderr.on('data', (d) => (err += d))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code !== 0 || firstLine === undefined || !out.startsWith('modloop demo')) return reject(new Error(`npm start failed (${code}): ${(out + err).slice(-500)}`))
      resolve({ firstLine, total: performance.now() - start, rebuilt: /bundle|tsc|error TS/.test(err) })
    })
  })
}

const runs = []
for (let i = 0; i < RUNS; i++) runs.push(await once())
const first = median(runs.map((r) => r.firstLine))
console.log(`npm start: the demo's first line after ${first.toFixed(0)} ms (median of ${RUNS}); the whole demo ${median(runs.map((r) => r.total)).toFixed(0)} ms${runs.some((r) => r.rebuilt) ? ' — a run rebuilt: the build was stale' : ''}`)
row("npm start (build up to date) to the demo's first line", first, { max: 1500, unit: 'ms', digits: 0, detail: `median of ${RUNS}` })
