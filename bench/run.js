// Runs every benchmark script in its own process, prints their figures, then the issue-26 targets
// (the `bench-row` lines the scripts print) as one table with pass or fail.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const scripts = ['dispatch.js', 'load-mods.js', 'cold-run.js', 'tool-rounds.js', 'npm-start.js', 'loop-rounds.js', 'read-concurrency.js', 'grep.js', 'hooks.js', 'sessions.js', 'compaction.js', 'prompt-cache.js', 'tasks.js', 'fleet.js']
const only = process.argv.slice(2)
const rows = []

function run(path) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path], { stdio: ['ignore', 'pipe', 'inherit'] })
    let buffered = ''
    child.stdout.on('data', (d) => {
      buffered += d
      let at
      while ((at = buffered.indexOf('\n')) !== -1) {
        const line = buffered.slice(0, at)
        buffered = buffered.slice(at + 1)
        if (line.startsWith('bench-row ')) rows.push(JSON.parse(line.slice('bench-row '.length)))
        else console.log(line)
      }
    })
    child.on('close', (code) => {
      if (buffered) console.log(buffered)
      resolve(code)
    })
  })
}

for (const script of scripts) {
  if (only.length && !only.some((o) => script.startsWith(o))) continue
  const path = fileURLToPath(new URL(script, import.meta.url))
  if (!existsSync(path)) continue
  if ((await run(path)) !== 0) process.exitCode = 1
}

if (rows.length) {
  console.log('\nissue 26 targets')
  const fmt = (r) => (Number.isFinite(r.value) ? `${r.value.toFixed(r.digits)} ${r.unit}` : 'n/a')
  const width = Math.max(...rows.map((r) => r.name.length))
  for (const r of rows) {
    const verdict = r.pass === undefined ? 'n/a ' : r.pass ? 'pass' : 'FAIL'
    console.log(`  ${verdict}  ${r.name.padEnd(width)}  ${fmt(r).padStart(10)}  (target ≤ ${r.max} ${r.unit})  ${r.detail}`)
  }
  console.log('  (the suite under 4 minutes on 2 cores is measured by `npm test` itself, not here)')
}
