// Sessions: resuming a 10,000-message transcript (read, chain, rebuild; then a whole resumed turn
// through query()), and the cost of appending one message when the file holds 100 vs 10,000.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'

const home = mkdtempSync(join(tmpdir(), 'modloop-bench-sessions-'))
process.env.MODLOOP_HOME = home
// The entry's query() hands the runtime modloop's built-ins, the file session store among them.
const { query } = await import('../dist/entry.js')
const { BUILTINS } = await import('../dist/builtins.js')
const { loadResume } = await import('../dist/runtime/resume.js')
const { transcriptPath } = await import('../dist/mods/transcripts/store/paths.js')
const { toLine } = await import('../dist/mods/transcripts/lines.js')
const { TranscriptWriter } = await import('../dist/mods/transcripts/writer.js')
const transcripts = (await import('../dist/mods/transcripts/index.js')).default

const cwd = join(home, 'project')
const usage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }

/** Messages of one tool round as the loop streams them: prompt, response (2 blocks), tool result, answer, result. */
function round(sessionId, r) {
  const stamp = (m) => ({ ...m, uuid: randomUUID(), session_id: sessionId })
  const assistant = (id, block) => stamp({ type: 'assistant', message: { id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [block], stop_reason: null, stop_sequence: null, usage }, parent_tool_use_id: null })
  return [
    stamp({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: `prompt ${r}: ${'some words of the prompt '.repeat(4)}` }] }, parent_tool_use_id: null }),
    assistant(`msg_${r}_a`, { type: 'text', text: `looking at ${r}: ${'an explanation of the plan '.repeat(4)}`, citations: null }),
    assistant(`msg_${r}_a`, { type: 'tool_use', id: `toolu_${r}`, name: 'Read', input: { file_path: `/project/src/file-${r}.ts` } }),
    stamp({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${r}`, content: '     1\tline of the file\n'.repeat(10) }] }, parent_tool_use_id: null, tool_use_result: { type: 'text' } }),
    assistant(`msg_${r}_b`, { type: 'text', text: `done ${r}`, citations: null }),
    stamp({ type: 'result', subtype: 'success', is_error: false, result: `done ${r}`, num_turns: 2, duration_ms: 5, duration_api_ms: 4, total_cost_usd: r * 0.001, usage, modelUsage: {}, stop_reason: 'end_turn', terminal_reason: 'completed', permission_denials: [] }),
  ]
}

const base = (sessionId) => ({ sessionId, cwd, isSidechain: false, userType: 'external', entrypoint: 'sdk-ts', version: 'bench' })

/** A session of `messages` history messages (4 per round), written with the transcripts mod's writer. */
function writeSession(messages) {
  const id = randomUUID()
  const writer = new TranscriptWriter(transcriptPath(cwd, id))
  for (let r = 0; r < messages / 4; r++) for (const m of round(id, r)) writer.append(toLine(m, base(id), 'claude-sonnet-4-5'))
  writer.close()
  return id
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const big = writeSession(10_000)
const load = []
for (let i = 0; i < 7; i++) {
  const t = performance.now()
  const state = await loadResume({ resume: big, builtins: BUILTINS }, cwd)
  load.push(performance.now() - t)
  if (state.rebuilt.messages.length !== 10_000) throw new Error(`rebuilt ${state.rebuilt.messages.length} messages, not 10,000`)
}
const turn = []
for (let i = 0; i < 3; i++) {
  const t = performance.now()
  let result
  for await (const m of query({ prompt: 'one more', options: { resume: big, cwd, bare: true, mods: [transcripts], script: [{ reply: 'ok' }] } })) if (m.type === 'result') result = m
  turn.push(performance.now() - t)
  if (result?.subtype !== 'success') throw new Error(`resumed turn failed: ${JSON.stringify(result)}`)
}

/** ms per appended message (conversion + one synchronous write) on a file that already holds `existing` messages. */
function appendCost(existing) {
  const id = writeSession(existing)
  const writer = new TranscriptWriter(transcriptPath(cwd, id), { after: null })
  const batch = Array.from({ length: 250 }, (_, r) => round(id, existing / 4 + r)).flat()
  for (const m of batch.slice(0, 60)) writer.append(toLine(m, base(id)))
  const t = performance.now()
  for (const m of batch.slice(60)) writer.append(toLine(m, base(id)))
  const ms = (performance.now() - t) / (batch.length - 60)
  writer.close()
  return ms
}
const small = median([appendCost(100), appendCost(100), appendCost(100)])
const large = median([appendCost(10_000), appendCost(10_000), appendCost(10_000)])

rmSync(home, { recursive: true, force: true })
console.log(`sessions: resume 10,000 messages ${median(load).toFixed(0)} ms (read, chain, rebuild; a whole resumed turn through query() ${median(turn).toFixed(0)} ms); append ${small.toFixed(3)} ms/message at 100, ${large.toFixed(3)} at 10,000`)
