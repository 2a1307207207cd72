// A 500-round tool conversation with large results (40,000 characters a round, every fifth one
// 70,000 and so moved to a file) under the compaction mod's defaults, with a 50K-token threshold:
// old results are cleared from what is sent and the conversation is summarized when it fills up.
// With results cleared a round adds ~50 tokens beside the five kept whole (~40K), so the threshold
// is reached every ~165 rounds: the conversation, which legitimately grows until then, is bounded
// by compaction three times in the run, and what the runtime holds must not grow across them.
// An in-process model answers at once (tool calls; a summary when asked without tools), so the
// figures are the runtime's own: time per round for each block of 100 rounds, and resident memory
// at every 100th round. The session runs three times, each in a fresh process: as the CLI runs it
// (the V8 flags of cli/heap.ts, set once the session is under way, as the CLI does), with V8's
// defaults (as in an application that embeds query() and leaves V8 alone: V8 grows the young
// generation to 32 MB and lets dead results pile up in the old one, so RSS climbs while little is
// held), and with a full collection every 10 rounds, which shows what is held (live heap) and how
// much each round adds once the first compaction has happened (flat: ~0 KB).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'

// MODLOOP_BENCH_ROUNDS (a multiple of 100) runs a longer session, to see where memory levels off.
const ROUNDS = Number(process.env.MODLOOP_BENCH_ROUNDS ?? 500)
const BLOCK = 100
const LONG_ROUNDS = ROUNDS * 4
// A full collection every this many rounds (counted as the model's time, not the runtime's); 0: none.
const GC_EVERY = Number(process.env.MODLOOP_BENCH_GC_EVERY ?? 0)
// 1: the CLI's V8 flags (cli/heap.ts) once the first response is in, as the CLI sets them.
const TUNED = process.env.MODLOOP_BENCH_TUNED === '1'
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(0)

if (process.env.MODLOOP_BENCH_COMPACTION_CHILD) {
  process.stdout.write(JSON.stringify(await session()))
} else {
  const self = fileURLToPath(import.meta.url)
  const run = (gcEvery, tuned, rounds = ROUNDS) => {
    const env = { ...process.env, MODLOOP_BENCH_COMPACTION_CHILD: '1', MODLOOP_BENCH_GC_EVERY: String(gcEvery), MODLOOP_BENCH_TUNED: tuned ? '1' : '0', MODLOOP_BENCH_ROUNDS: String(rounds) }
    const r = spawnSync(process.execPath, [self], { env, encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`the benchmark session failed (a full collection every ${gcEvery} rounds, tuned: ${tuned}):\n${r.stderr}`)
    return JSON.parse(r.stdout)
  }
  const cli = run(0, true)
  const plain = run(0, false)
  const collected = run(10, false)
  const list = (xs, f) => xs.map(f).join(' / ')
  const rounds = list(cli.samples, (s) => s.round)
  const mean = (r) => r.blocks.reduce((a, b) => a + b, 0) / r.blocks.length
  // Growth per round after the first compaction (the first sample past it to the last): what a longer session would add.
  const growth = (r, key) => {
    const from = r.samples.find((s) => s.round > r.boundaryRounds[0]) ?? r.samples[0]
    const last = r.samples.at(-1)
    return { from: from.round, to: last.round, kb: (((last[key] - from[key]) / Math.max(1, last.round - from.round)) / 1024).toFixed(1) }
  }
  const held = growth(collected, 'used')
  const peak = growth(cli, 'peak')
  console.log(`compaction: ${ROUNDS}-round session with 40-70K-character tool results: ${cli.boundaries} compactions (at rounds ${cli.boundaryRounds.join(', ')}), ${cli.files} results moved to files`)
  console.log(`  as the CLI runs it: runtime per round, rounds ${list(cli.blocks, (_b, i) => `${i * BLOCK + 1}-${(i + 1) * BLOCK}`)}: ${list(cli.blocks, (b) => b.toFixed(2))} ms`)
  console.log(`    RSS at rounds ${rounds}: ${list(cli.samples, (s) => mb(s.rss))} MB (peak ${list(cli.samples, (s) => mb(s.peak))}); V8 heap ${list(cli.samples, (s) => mb(s.heap))} MB; peak RSS from round ${peak.from} to ${peak.to}: ${peak.kb} KB a round`)
  console.log(`  with V8's defaults (embedded): RSS ${list(plain.samples, (s) => mb(s.rss))} MB (peak ${list(plain.samples, (s) => mb(s.peak))}); V8 heap ${list(plain.samples, (s) => mb(s.heap))} MB; runtime per round ${mean(plain).toFixed(2)} ms (as the CLI runs it: ${mean(cli).toFixed(2)} ms)`)
  console.log(`  full GC every 10 rounds: RSS ${list(collected.samples, (s) => mb(s.rss))} MB (peak ${list(collected.samples, (s) => mb(s.peak))}); live heap ${list(collected.samples, (s) => mb(s.used))} MB; held per round from round ${held.from} to ${held.to}: ${held.kb} KB`)
  // Four times as long, as the CLI runs it: where peak RSS levels off, and that it then stays there.
  const long = run(0, true, LONG_ROUNDS)
  const at = (r) => long.samples.find((s) => s.round === r)
  const longGrowth = (((at(LONG_ROUNDS).peak - at(LONG_ROUNDS / 2).peak) / (LONG_ROUNDS / 2)) / 1024).toFixed(1)
  const quarters = [1, 2, 3, 4].map((q) => (q * LONG_ROUNDS) / 4)
  console.log(`  ${LONG_ROUNDS.toLocaleString('en-US')} rounds as the CLI runs it: peak RSS at rounds ${quarters.join(' / ')}: ${list(quarters, (r) => mb(at(r).peak))} MB; from round ${LONG_ROUNDS / 2} to ${LONG_ROUNDS}: ${longGrowth} KB a round; runtime per round, first and last 100: ${long.blocks[0].toFixed(2)} / ${long.blocks.at(-1).toFixed(2)} ms`)
  const meter = await meterCost()
  console.log(`  context meter per request with a history of ${list(meter, (m) => m.history.toLocaleString('en-US'))} messages: ${list(meter, (m) => m.us.toFixed(0))} µs`)
}

/** The meter's own work for one request (measure, then take the response's count) as the history grows: it should not grow with it. */
async function meterCost() {
  const { ContextMeter } = await import('../dist/core/loop/context-meter.js')
  const out = []
  const messages = [{ role: 'user', content: 'go' }]
  const session = { messages, meter: new ContextMeter(messages) }
  let id = 0
  const round = () => {
    id++
    session.messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${id}`, name: 'Read', input: { file_path: `/src/file-${id}.ts` } }] })
    session.messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${id}`, content: `${id}`.padEnd(4_000, '.') }] })
  }
  // The loop sends a copy of the history; copying it is the loop's work, not the meter's.
  const request = (sent = session.messages.slice()) => {
    session.meter.tokens()
    session.meter.noteResponse(sent, { input_tokens: 1_000 * sent.length, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 })
  }
  for (const history of [100, 1_000, 4_000]) {
    while (session.messages.length < history) { round(); request() }
    const n = 200
    let ms = 0
    for (let i = 0; i < n; i++) {
      round()
      const sent = session.messages.slice()
      const t0 = performance.now()
      request(sent)
      ms += performance.now() - t0
    }
    out.push({ history, us: (ms / n) * 1000 })
  }
  return out
}

async function session() {
  const home = mkdtempSync(join(tmpdir(), 'modloop-bench-compaction-'))
  process.env.MODLOOP_HOME = home
  const { setFlagsFromString } = await import('node:v8')
  const { runInNewContext } = await import('node:vm')
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc')
  const { query } = await import('../dist/runtime/query.js')
  const { eventsForStep } = await import('../dist/testing/model/script.js')
  const compaction = (await import('../dist/mods/compaction/index.js')).default

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
  const options = compaction.options.parse({ thresholdTokens: 50_000, microcompact: { tools: ['Big'] } })
  // The mod as defined (its uses and provides with it), registered with the bench's options.
  const compactionMod = { ...compaction, register: (on, _o, $) => compaction.register(on, options, $) }

  // The model counts the request's tokens as the API would (four characters a token), block by
  // block: blocks are replaced, never edited, so each is measured once. Serializing the whole
  // request per round instead would put the model's own garbage into the runtime's memory figures.
  const sizes = new WeakMap()
  const charsOf = (value) => {
    if (typeof value === 'string') return value.length + 2
    if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null).length
    let n = sizes.get(value)
    if (n === undefined) sizes.set(value, (n = JSON.stringify(value).length))
    return n
  }
  const inputTokens = (request) => {
    let chars = charsOf(request.system) + charsOf(request.tools)
    for (const m of request.messages) chars += 24 + (typeof m.content === 'string' ? charsOf(m.content) : m.content.reduce((n, b) => n + charsOf(b) + 1, 0))
    return Math.ceil(chars / 4)
  }

  // Round r's request arrives at marks[r]; model time is what the model itself spent building streams.
  const marks = []
  const modelMsAt = []
  const samples = []
  let modelMs = 0
  let summaries = 0
  let round = 0
  const model = {
    name: 'bench',
    async *stream(request) {
      // Reading memory counts as the model's time, so it is not counted as runtime.
      const t0 = performance.now()
      if (GC_EVERY && request.tools?.length && round % GC_EVERY === 0) gc()
      if (request.tools?.length && round > 0 && round % BLOCK === 0) {
        const { rss, heapTotal, heapUsed } = process.memoryUsage()
        samples.push({ round, rss, peak: process.resourceUsage().maxRSS * 1024, heap: heapTotal, used: heapUsed })
      }
      if (TUNED && round === 1) (await import('../dist/cli/heap.js')).tuneHeapForLongSession({ ownsProcess: true })
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
      const events = eventsForStep({ ...step, usage: { input_tokens: inputTokens(request) } }, request, round)
      modelMs += performance.now() - t0
      for (const ev of events) yield ev
    },
  }

  let result
  let boundaries = 0
  const boundaryRounds = []
  for await (const m of query({ prompt: 'go', options: { bare: true, cwd: home, mods: [big, compactionMod], modelProvider: model } })) {
    if (m.type === 'system' && m.subtype === 'compact_boundary') { boundaries++; boundaryRounds.push(round) }
    if (m.type === 'result') result = m
  }
  if (result?.result !== 'done') throw new Error(`the session did not finish: ${JSON.stringify(result)}`)
  /** Mean runtime per round over [from, to): wall time between requests minus the model's own time. */
  const perRound = (from, to) => ((marks[to] - marks[from]) - (modelMsAt[to] - modelMsAt[from])) / (to - from)
  const blocks = Array.from({ length: ROUNDS / BLOCK }, (_, i) => perRound(i * BLOCK, (i + 1) * BLOCK))
  const files = readdirSync(join(home, 'projects'), { recursive: true }).filter((f) => String(f).endsWith('.txt')).length
  rmSync(home, { recursive: true, force: true })
  return { boundaries, boundaryRounds, files, blocks, samples }
}
