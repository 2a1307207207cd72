// Grep over this repository with the JavaScript engine, and with ripgrep when it is on PATH.
import { fileURLToPath } from 'node:url'
import { findExecutable } from '../dist/mods/grep/find-executable.js'
import { specOf } from '../dist/mods/grep/grep-input.js'
import { searchWithJs } from '../dist/mods/grep/js-engine.js'
import { searchWithRg } from '../dist/mods/grep/rg-engine.js'

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
