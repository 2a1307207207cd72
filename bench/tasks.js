// Background subagents against foreground ones, through the real SDK and the fake Messages API
// server: a turn starts three subagents whose model answers take 300 ms each, then answers. In the
// foreground the turn's result waits for them; in the background it comes at once and each report
// comes back as a turn of its own. Also what the task registry costs a foreground subagent: the
// same one-request subagent run 30 times with and without the tasks mod (medians).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { query } from '../dist/entry.js'
import { startFakeAnthropic } from '../dist/testing/fake-anthropic.js'

const AGENTS = 3
const DELAY_MS = 300

const agentCall = (i, background) => ({ tool_use: { name: 'Agent', input: { description: `job ${i}`, prompt: `job ${i}: look`, ...(background ? { run_in_background: true } : {}) } } })
const sub = (i, delayMs) => ({ reply: `report ${i}`, when: { firstUserText: `job ${i}: look` }, ...(delayMs ? { delayMs } : {}) })

async function run(script, mods, prompt = 'go') {
  const dir = mkdtempSync(join(tmpdir(), 'modloop-bench-tasks-'))
  const server = await startFakeAnthropic({ script })
  const started = performance.now()
  const marks = { receipts: [], results: [] }
  let call
  try {
    const env = { ...process.env, HOME: dir, MODLOOP_HOME: join(dir, 'home'), ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'bench' }
    for await (const m of query({ prompt, options: { cwd: dir, bare: true, mods, env } })) {
      const now = performance.now() - started
      if (m.type === 'assistant' && m.message.content.some((b) => b.type === 'tool_use') && !m.parent_tool_use_id) call ??= now
      if (m.type === 'user' && !m.parent_tool_use_id && m.tool_use_result) marks.receipts.push(now - call)
      if (m.type === 'result') marks.results.push(now)
    }
  } finally {
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  }
  return marks
}

const ms = (n) => `${n.toFixed(1)} ms`
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const fanOut = (background) => [
  { reply: Array.from({ length: AGENTS }, (_, i) => agentCall(i, background)) },
  ...Array.from({ length: AGENTS }, (_, i) => sub(i, DELAY_MS)),
  { reply: 'started them' },
  ...(background ? Array.from({ length: AGENTS }, () => ({ reply: 'noted a report' })) : []),
]
// The first query of a process loads the SDK and the mods: not what is measured here.
await run([{ reply: [agentCall(0, false)] }, sub(0), { reply: 'ok' }], ['agent', 'tasks'])
const fg = await run(fanOut(false), ['agent', 'tasks'])
const bg = await run(fanOut(true), ['agent', 'tasks'])
console.log(`${AGENTS} subagents (${DELAY_MS} ms model answers each), started in one response:`)
console.log(`  foreground: the turn's result at ${ms(fg.results[0])}; the Agent calls returned after ${ms(Math.min(...fg.receipts))}–${ms(Math.max(...fg.receipts))}`)
console.log(`  background: the turn's result at ${ms(bg.results[0])}; the receipts after ${ms(Math.min(...bg.receipts))}–${ms(Math.max(...bg.receipts))}; the last report's turn ended at ${ms(bg.results.at(-1))} (${bg.results.length} results)`)

const ROUNDS = 30
const one = () => [{ reply: [agentCall(0, false)] }, sub(0), { reply: 'ok' }]
const times = { with: [], without: [] }
for (let i = 0; i < ROUNDS; i++) {
  for (const [name, mods] of [['with', ['agent', 'tasks']], ['without', ['agent']]]) {
    const r = await run(one(), mods)
    times[name].push(Math.max(...r.receipts))
  }
}
console.log(`a foreground subagent's call, median of ${ROUNDS}: ${ms(median(times.with))} with the task registry (task messages, output file, record), ${ms(median(times.without))} without`)
