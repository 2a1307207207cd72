// A 20-round tool conversation: core overhead per loop round (in-process scripted model, a trivial
// tool), and the same conversation through the real SDK against the fake server on loopback.
import { query } from '../dist/runtime/query.js'
import { createScriptedModel } from '../dist/testing/model/scripted.js'
import { startFakeAnthropic } from '../dist/testing/fake-anthropic.js'
import { z } from 'zod'

const ROUNDS = 20
const script = () => [
  ...Array.from({ length: ROUNDS - 1 }, (_, i) => ({ reply: [{ tool_use: { name: 'Echo', input: { text: `round ${i}` } } }], usage: { input_tokens: 10, output_tokens: 5 } })),
  { reply: 'done', usage: { input_tokens: 10, output_tokens: 5 } },
]
const echo = {
  name: 'echo-tool',
  register(on) {
    on('session.start', async ($, e, next) => {
      await $.tool.register({ name: 'Echo', description: 'Echo', input: z.object({ text: z.string() }), isReadOnly: true, call: (i) => ({ result: i.text }) })
      return next(e)
    })
  },
}

async function run(options) {
  const start = performance.now()
  let result
  for await (const m of query({ prompt: 'go', options: { bare: true, mods: [echo], ...options } })) if (m.type === 'result') result = m
  if (result?.num_turns !== ROUNDS) throw new Error(`expected ${ROUNDS} rounds, got ${result?.num_turns}: ${JSON.stringify(result)}`)
  return performance.now() - start
}

for (let i = 0; i < 5; i++) await run({ modelProvider: createScriptedModel(script()) })
const samples = []
for (let i = 0; i < 20; i++) samples.push(await run({ modelProvider: createScriptedModel(script()) }))
samples.sort((a, b) => a - b)
const median = samples[Math.floor(samples.length / 2)]
console.log(`loop: ${(median / ROUNDS).toFixed(3)} ms per round, core overhead (scripted model in-process, ${ROUNDS} rounds: ${median.toFixed(1)} ms median of 20)`)

const server = await startFakeAnthropic({ script: [...script(), ...script(), ...script(), ...script()] })
const env = { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'bench' }
await run({ env })
const http = []
for (let i = 0; i < 3; i++) http.push(await run({ env }))
await server.close()
http.sort((a, b) => a - b)
console.log(`loop: ${ROUNDS}-round tool conversation through the SDK and the fake server on loopback: ${http[1].toFixed(1)} ms (${(http[1] / ROUNDS).toFixed(2)} ms per round)`)
