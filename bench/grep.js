// Grep over this repository with the JavaScript engine, and with ripgrep when it is on PATH.
import { fileURLToPath } from 'node:url'
import { findExecutable } from '../dist/mods/grep/find-executable.js'
import { specOf } from '../dist/mods/grep/grep-input.js'
import { searchWithJs } from '../dist/mods/grep/js-engine.js'
import { searchWithRg } from '../dist/mods/grep/rg-engine.js'

// A child run for one search of the 1 GB file (see measured below): its peak RSS is that search's alone.
if (process.env.GREP_BENCH_ONE) {
  const { label, file, input } = JSON.parse(process.env.GREP_BENCH_ONE)
  const before = process.memoryUsage().rss
  let peak = before
  // The longest the event loop went without a turn: how late an interrupt could be acted on.
  let tick = performance.now()
  let blocked = 0
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
    blocked = Math.max(blocked, performance.now() - tick - 20)
    tick = performance.now()
  }, 20)
  const t = performance.now()
  let outcome
  try {
    const hits = await searchWithJs(specOf(input, file, true, new AbortController().signal))
    outcome = `${hits.length} lines: ${hits.join(' ')}`
  } catch (err) {
    outcome = `failed: ${err instanceof Error ? err.message : String(err)}`
  }
  clearInterval(sampler)
  peak = Math.max(peak, process.memoryUsage().rss)
  console.log(`${label}: ${((performance.now() - t) / 1000).toFixed(1)} s, peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB (${(before / 2 ** 20).toFixed(0)} MiB before it; event loop blocked at most ${blocked.toFixed(0)} ms; ${outcome})`)
  process.exit(0)
}

const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '')
const signal = new AbortController().signal
const inputs = [
  { pattern: 'export (async )?function', output_mode: 'files_with_matches' },
  { pattern: 'import .* from', output_mode: 'content', head_limit: 0 },
]
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

async function time(search) {
  const runs = []
  let lines = 0
  for (let i = 0; i < 6; i++) {
    const start = performance.now()
    for (const input of inputs) lines = (await search(specOf({ output_mode: 'files_with_matches', ...input }, root, false, signal))).length
    if (i > 0) runs.push(performance.now() - start) // the first run warms caches
  }
  return { ms: median(runs), lines }
}

const js = await time(searchWithJs)
const rg = await findExecutable('rg')
const native = rg ? await time((spec) => searchWithRg(rg, spec)) : undefined
console.log(`Grep over the repo: JS ${js.ms.toFixed(1)} ms${native ? `, rg ${native.ms.toFixed(1)} ms` : ' (rg not on PATH)'} (${inputs.length} searches: a files_with_matches and a content search)`)

// Searches of the 1 GB file: line by line (a chunk at a time), and multiline (in overlapping windows).
const BIG_SEARCHES = [
  ['Grep fallback over a 1 GB file', { pattern: 'lazy cat', output_mode: 'count' }],
  // Every line's end matches, so the engine runs over every window and the matches join into one run.
  ['Grep fallback over a 1 GB file, multiline', { pattern: 'dog \\nthe quick', output_mode: 'count', multiline: true }],
]

/** Runs one search of `file` in a child process and says its time and peak RSS. */
async function measured(label, file, input) {
  const { execFileSync } = await import('node:child_process')
  const script = fileURLToPath(import.meta.url)
  try {
    return execFileSync(process.execPath, [script], { env: { ...process.env, GREP_BENCH_ONE: JSON.stringify({ label, file, input }) }, encoding: 'utf8' }).trim()
  } catch (err) {
    // Killed, or out of memory past what the search could catch.
    return `${label}: the process failed: ${String(err.stderr || err.message).trim().split('\n').find((l) => /error/i.test(l)) ?? err.message}`
  }
}

// The fallback's worst cases: a pattern that makes a backtracking engine explode, and a 1 GB file.
{
  const { mkdtemp, rm, writeFile, open } = await import('node:fs/promises')
  const { tmpdir } = await import('node:os')
  const { join } = await import('node:path')
  const dir = await mkdtemp(join(tmpdir(), 'modloop-grep-bench-'))
  try {
    await writeFile(join(dir, 'evil.txt'), `${'a'.repeat(40)}!\n`)
    const start = performance.now()
    await searchWithJs(specOf({ pattern: '(a+)+$', output_mode: 'content', head_limit: 0 }, join(dir, 'evil.txt'), true, signal))
    console.log(`Grep fallback, (a+)+$ over a 40-character line: ${(performance.now() - start).toFixed(1)} ms`)
    if (process.env.MODLOOP_BENCH_BIG !== '0') {
      const big = join(dir, 'big.txt')
      const file = await open(big, 'w')
      const line = `${'the quick brown fox jumps over the lazy dog '.repeat(2)}\n`
      const block = line.repeat(Math.ceil((1 << 20) / line.length))
      for (let written = 0; written < 1e9; written += block.length) await file.write(block)
      await file.close()
      // Each search in a fresh process: one's heap would raise the next one's peak.
      for (const [label, input] of BIG_SEARCHES) console.log(await measured(label, big, input))
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
