// Ten Read calls in one response (one concurrent read-only batch) against the same ten reads made
// one per response; the figure is the tool time, timed by a tool.call spy. Two sets of files: this
// repository's ten largest sources (what a session reads), and ten files at Read's default cap of
// 2,000 lines, ~220 KB each (the worst case: their CPU, not their I/O, sets the pace).
import { copyFile, mkdtemp, readdir, realpath, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { query } from '../dist/runtime/query.js'
import { defineMod } from '../dist/core/mod/define.js'
import { createScriptedModel } from '../dist/testing/model/scripted.js'
import read from '../dist/mods/read/index.js'

const FILES = 10
const LINES = 2_000
const ROUNDS = 15
const root = fileURLToPath(new URL('..', import.meta.url))
const dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-bench-read-')))

async function sources() {
  const found = []
  for (const top of ['core', 'runtime', 'mods', 'cli', 'hooks-runner', 'testing']) {
    for (const entry of await readdir(join(root, top), { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith('.ts')) found.push(join(entry.parentPath ?? entry.path, entry.name))
    }
  }
  const sized = await Promise.all(found.map(async (file) => ({ file, size: (await stat(file)).size })))
  const largest = sized.sort((a, b) => b.size - a.size).slice(0, FILES)
  return Promise.all(largest.map(async ({ file }, i) => {
    const copy = join(dir, `src-${i}-${basename(file)}`)
    await copyFile(file, copy)
    return copy
  }))
}

async function capSized() {
  const files = []
  for (let i = 0; i < FILES; i++) {
    const file = join(dir, `big-${i}.ts`)
    await writeFile(file, Array.from({ length: LINES }, (_, n) => `export const value${n} = ${JSON.stringify('x'.repeat(80))} // line ${n}`).join('\n'))
    files.push(file)
  }
  return files
}

/** Runs a script and returns each Read call's [start, end] in ms. */
async function timedReads(steps) {
  const spans = []
  const spy = defineMod({
    name: 'spy',
    register: (on) => on('tool.call', { tool: 'Read' }, async (_$, e, next) => {
      const start = performance.now()
      const r = await next(e)
      spans.push([start, performance.now()])
      return r
    }),
  })
  const q = query({ prompt: 'read', options: { bare: true, cwd: dir, mods: [read, spy], modelProvider: createScriptedModel(steps) } })
  for await (const _ of q) { /* drain */ }
  return spans
}

const readUse = (file) => ({ tool_use: { name: 'Read', input: { file_path: file } } })
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

async function measure(files) {
  const oneResponse = () => timedReads([{ reply: files.map(readUse) }, { reply: 'done' }])
  const oneEach = () => timedReads([...files.map((f) => ({ reply: [readUse(f)] })), { reply: 'done' }])
  await oneResponse() // warm up the JIT and the page cache
  await oneEach()
  const batch = []
  const sums = []
  const slowest = []
  const middle = []
  for (let round = 0; round < ROUNDS; round++) {
    const spans = await oneResponse()
    batch.push(Math.max(...spans.map((s) => s[1])) - Math.min(...spans.map((s) => s[0])))
    const singles = (await oneEach()).map(([start, end]) => end - start)
    sums.push(singles.reduce((sum, ms) => sum + ms, 0))
    slowest.push(Math.max(...singles))
    middle.push(median(singles))
  }
  const kb = (await Promise.all(files.map((f) => stat(f)))).reduce((sum, s) => sum + s.size, 0) / files.length / 1024
  // Per round, against the same round's single calls: the machine's pace drifts between rounds.
  const vsSlowest = median(batch.map((b, i) => b / slowest[i]))
  const vsSum = median(batch.map((b, i) => b / sums[i]))
  return `${median(batch).toFixed(1)} ms, ${vsSlowest.toFixed(2)}x the slowest single call and ${vsSum.toFixed(2)}x their sum (one call a response: slowest ${median(slowest).toFixed(1)} ms, median ${median(middle).toFixed(1)} ms, sum ${median(sums).toFixed(1)} ms; files of ${kb.toFixed(0)} KB on average, medians of ${ROUNDS})`
}

const real = await measure(await sources())
const cap = await measure(await capSized())
await rm(dir, { recursive: true, force: true })
console.log(`ten Read calls in one response, this repository's ten largest sources: ${real}`)
console.log(`ten Read calls in one response, ${FILES} files of ${LINES} lines: ${cap}`)
