// Ten Read calls of large files in one response (one concurrent read-only batch) against the
// same ten reads made one per response; the figure is the tool time, timed by a tool.call spy.
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { query } from '../dist/core/loop/query.js'
import { defineMod } from '../dist/core/mod/define.js'
import { createScriptedModel } from '../dist/core/model/scripted.js'
import read from '../dist/mods/read/index.js'

const FILES = 10
const LINES = 2_000
const dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-bench-read-')))
const files = []
for (let i = 0; i < FILES; i++) {
  const file = join(dir, `big-${i}.ts`)
  await writeFile(file, Array.from({ length: LINES }, (_, n) => `export const value${n} = ${JSON.stringify('x'.repeat(80))} // line ${n}`).join('\n'))
  files.push(file)
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
const oneResponse = () => timedReads([{ reply: files.map(readUse) }, { reply: 'done' }])
const oneEach = () => timedReads([...files.map((f) => ({ reply: [readUse(f)] })), { reply: 'done' }])

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
await oneResponse() // warm up the JIT and the page cache
await oneEach()
const batch = []
const sums = []
const slowest = []
for (let round = 0; round < 7; round++) {
  const spans = await oneResponse()
  batch.push(Math.max(...spans.map((s) => s[1])) - Math.min(...spans.map((s) => s[0])))
  const singles = (await oneEach()).map(([start, end]) => end - start)
  sums.push(singles.reduce((sum, ms) => sum + ms, 0))
  slowest.push(Math.max(...singles))
}
await rm(dir, { recursive: true, force: true })
console.log(`ten Read calls in one response: ${median(batch).toFixed(1)} ms (one call a response: sum ${median(sums).toFixed(1)} ms, slowest ${median(slowest).toFixed(1)} ms; ${FILES} files of ${LINES} lines, medians of 7)`)
