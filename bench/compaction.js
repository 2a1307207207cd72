// A 500-round tool conversation with large results (40,000 characters a round, every fifth one
// 70,000 and so moved to a file) under the compaction mod's defaults for a 200K window: old
// results are cleared from what is sent and the conversation is summarized when it fills up.
// An in-process model answers at once (tool calls; a summary when asked without tools), so the
// figures are the runtime's own: time per round and peak memory, first 100 rounds vs last 100.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { z } from 'zod'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc')

const home = mkdtempSync(join(tmpdir(), 'modloop-bench-compaction-'))
process.env.MODLOOP_HOME = home
const { query } = await import('../dist/core/loop/query.js')
const { eventsForStep } = await import('../dist/core/model/script.js')
const compaction = (await import('../dist/mods/compaction/index.js')).default

const ROUNDS = 500
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1)

const big = {
  name: 'big-tool',
  register(on) {
    on('session.start', async ($, e, next) => {
      await $.tool.register({
        name: 'Big', description: 'Returns n characters', isReadOnly: true, input: z.object({ n: z.number(), round: z.number() }),
        call: (i) => ({ result: `round ${i.round}\n${'0123456789abcdef'.repeat(Math.ceil(i.n / 16)).slice(0, i.n)}` }),
      })
      return next(e)
    })
  },
}
// A 60,000-token threshold, so that both clearing old results and summarizing happen within the run.
const options = compaction.options.parse({ thresholdTokens: 60_000, microcompact: { tools: ['Big'] } })
const compactionMod = { name: 'compaction', register: (on, _o, $) => compaction.register(on, options, $) }

// Round r's request arrives at marks[r]; model time is what the model itself spent building streams.
const marks = []
let modelMs = 0
const modelMsAt = []
let rssAt100 = 0
let heapAt100 = 0
let summaries = 0
let round = 0
const model = {
  name: 'bench',
  async *stream(request) {
    // Memory is sampled before the round's clock starts, so the GC it forces is not counted.
    if (request.tools?.length && round === 100) {
      rssAt100 = process.resourceUsage().maxRSS * 1024
      gc()
      heapAt100 = process.memoryUsage().heapUsed
    }
    const t0 = performance.now()
    let step
    if (!request.tools?.length) {
      summaries++
      step = { reply: [{ text: `Summary ${summaries}: the user asked for ${ROUNDS} rounds of output; work continues.` }] }
    } else {
      marks.push(t0)
      modelMsAt.push(modelMs)
      round++
      step = round <= ROUNDS
        ? { reply: [{ tool_use: { id: `toolu_${round}`, name: 'Big', input: { n: round % 5 === 0 ? 70_000 : 40_000, round } } }] }
        : { reply: [{ text: 'done' }] }
    }
    const events = eventsForStep(step, request, round)
    modelMs += performance.now() - t0
    for (const ev of events) yield ev
  },
}

let result
let boundaries = 0
for await (const m of query({ prompt: 'go', options: { bare: true, cwd: home, mods: [big, compactionMod], modelProvider: model } })) {
  if (m.type === 'system' && m.subtype === 'compact_boundary') boundaries++
  if (m.type === 'result') result = m
}
if (result?.result !== 'done') throw new Error(`the session did not finish: ${JSON.stringify(result)}`)
const end = process.resourceUsage().maxRSS * 1024
gc()
const heapEnd = process.memoryUsage().heapUsed

/** Mean runtime per round over [from, to): wall time between requests minus the model's own time. */
const perRound = (from, to) => ((marks[to] - marks[from]) - (modelMsAt[to] - modelMsAt[from])) / (to - from)
const files = readdirSync(join(home, 'projects'), { recursive: true }).filter((f) => String(f).endsWith('.txt')).length
console.log(`compaction: ${ROUNDS}-round session with 40-70K-character tool results: ${boundaries} compactions, ${files} results moved to files; runtime per round ${perRound(0, 100).toFixed(2)} ms (rounds 1-100) vs ${perRound(ROUNDS - 100, ROUNDS).toFixed(2)} ms (rounds 401-500); peak RSS ${mb(rssAt100)} MB after 100 rounds, ${mb(end)} MB after ${ROUNDS}; live heap after GC ${mb(heapAt100)} MB vs ${mb(heapEnd)} MB`)
rmSync(home, { recursive: true, force: true })
