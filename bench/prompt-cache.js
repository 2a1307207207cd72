// What prompt caching saves: the same 40-round coding session (39 tool calls with results of
// 2–20 KB, then the answer) through the real SDK against the fake Messages API server, whose
// prompt cache counts reads and writes as the API does (testing/prompt-cache.ts), with the
// default distribution and with its prompt-cache mod turned off (DISABLE_PROMPT_CACHING=1).
// Figures over the session: input tokens billed at the full price, cache reads and writes, the
// share of input read from the cache, and the session's cost at Sonnet prices.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { query } from '../dist/entry.js'
import { startFakeAnthropic } from '../dist/testing/fake-anthropic.js'

const ROUNDS = 40
const MODEL = 'claude-sonnet-4-5'
// Result sizes spread over 2–20 KB, the same in both runs.
const kb = (i) => 2 + ((i * 7919) % 19)

const script = () => [
  ...Array.from({ length: ROUNDS - 1 }, (_, i) => ({ reply: [{ text: `Reading part ${i}.` }, { tool_use: { name: 'Blob', input: { part: i, kb: kb(i) } } }] })),
  { reply: 'All parts read.' },
]
const blob = {
  name: 'blob-tool',
  register(on) {
    on('session.start', async ($, e, next) => {
      await $.tool.register({
        name: 'Blob', description: 'Read one part of the project', input: z.object({ part: z.number(), kb: z.number() }), isReadOnly: true,
        call: (i) => ({ result: `part ${i.part}\n${'const value = compute(input, options) // a line of code\n'.repeat(Math.ceil((i.kb * 1024) / 56))}`.slice(0, i.kb * 1024) }),
      })
      return next(e)
    })
  },
}

async function session(cached) {
  const dir = mkdtempSync(join(tmpdir(), 'modloop-bench-cache-'))
  const server = await startFakeAnthropic({ script: script() })
  let result
  try {
    const env = { ...process.env, HOME: dir, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'bench', ...(cached ? {} : { DISABLE_PROMPT_CACHING: '1' }) }
    for await (const m of query({ prompt: 'Read every part.', options: { cwd: dir, model: MODEL, mods: [blob], env, permissionMode: 'bypassPermissions' } })) {
      if (m.type === 'result') result = m
    }
  } finally {
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  }
  if (result?.num_turns !== ROUNDS) throw new Error(`expected ${ROUNDS} rounds, got ${result?.num_turns}: ${JSON.stringify(result)}`)
  const u = result.usage
  const input = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens
  return { full: u.input_tokens, read: u.cache_read_input_tokens, written: u.cache_creation_input_tokens, input, cost: result.total_cost_usd }
}

const k = (n) => `${(n / 1000).toFixed(0)}K`
const off = await session(false)
const on = await session(true)
const share = on.read / on.input
const fall = 1 - on.cost / off.cost
for (const [name, r] of [['without prompt-cache', off], ['with prompt-cache', on]]) {
  console.log(`prompt cache: ${name}: ${k(r.input)} input tokens over ${ROUNDS} rounds, ${k(r.full)} at the full price, ${k(r.read)} cache reads, ${k(r.written)} cache writes; $${r.cost.toFixed(2)}`)
}
console.log(`prompt cache: ${(share * 100).toFixed(1)}% of input tokens read from the cache (target ≥ 85%), cost ${(fall * 100).toFixed(1)}% lower (target ≥ 70%)`)
if (share < 0.85 || fall < 0.7) process.exitCode = 1
