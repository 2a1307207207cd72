import { describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import promptCache from '../../mods/prompt-cache/index.js'
import type { CacheFigures } from '../../testing/prompt-cache.js'
import { runScript } from '../loop/helpers.js'
import { big, bigTool, boundaries, compactionWith, firstUserText, FORK_INSTRUCTION, isForkedSummary, isRenderedSummary, isSummaryRequest, mainRequests, summary } from './helpers.js'

const MODEL = 'claude-sonnet-4-5'
const opts = { thresholdTokens: 5_000, keepRecentFraction: 0, microcompact: false }
const unmarked = (v: unknown): any => JSON.parse(JSON.stringify(v, (k, x) => (k === 'cache_control' ? undefined : x)))
const lastText = (body: any): string => body.messages.at(-1).content.at(-1).text
const cacheOf = (q: { body: any }) => (q as { cache?: CacheFigures }).cache!

describe('the summary is asked over the conversation itself (spec loop-and-sdk §3.9)', () => {
  it('sends the loop\'s own system prompt, tools and messages, so the prompt cache serves all but the instruction', async () => {
    const r = await runScript([big('r1'), big('r2'), big('r3'), summary('SUMMARY-FORK'), { reply: 'done' }], 'go', {
      model: MODEL, mods: [bigTool, compactionWith(opts), promptCache],
    })
    expect(r.result.result).toBe('done')
    expect(boundaries(r.messages)).toHaveLength(1)
    const at = r.requests.findIndex(isSummaryRequest)
    const fork = r.requests[at]!
    const before = r.requests[at - 1]!
    expect(isForkedSummary(fork)).toBe(true)
    // The same prefix as the round before it: model, system prompt, tools and messages alike.
    expect(fork.body.model).toBe(before.body.model)
    expect(unmarked(fork.body.system)).toEqual(unmarked(before.body.system))
    expect(unmarked(fork.body.tools)).toEqual(unmarked(before.body.tools))
    expect(unmarked(fork.body.messages.slice(0, before.body.messages.length))).toEqual(unmarked(before.body.messages))
    // The round's answer and its result follow, then the instruction after the result.
    const last = fork.body.messages.at(-1)
    expect(last.content.map((b: any) => b.type)).toEqual(['tool_result', 'text'])
    expect(lastText(fork.body)).toContain(FORK_INSTRUCTION)
    expect(lastText(fork.body)).toContain('call no tool')
    // Everything the round before sent, read or written, is read back from the cache now.
    const sent = cacheOf(before).cache_read_input_tokens + cacheOf(before).cache_creation_input_tokens
    expect(sent).toBeGreaterThan(3_000)
    expect(cacheOf(fork).cache_read_input_tokens).toBeGreaterThanOrEqual(sent)
    // The conversation goes on from the summary.
    expect(firstUserText(mainRequests(r.requests).at(-1)!)).toContain('SUMMARY-FORK')
  })

  it('on a conversation that ends on an answer, comes as a user message of its own (/compact between turns)', async () => {
    const compactAfter = defineMod({
      name: 'compact-after',
      register(on) {
        on('turn.complete', async ($, e, next) => {
          const r = await next(e)
          await ($.session.compact as (a: { trigger: 'plugin' }) => Promise<unknown>)({ trigger: 'plugin' })
          return r
        })
      },
    })
    const r = await runScript([{ reply: 'first answer' }, summary('SUMMARY-AFTER')], 'go', { mods: [compactionWith(opts), compactAfter] })
    expect(r.requests).toHaveLength(2)
    const fork = r.requests[1]!
    expect(isForkedSummary(fork)).toBe(true)
    expect(fork.body.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(fork.body.messages[1].content.map((b: any) => b.text)).toEqual(['first answer'])
    expect(fork.body.messages[2].content).toContain(FORK_INSTRUCTION)
  })

  it('falls back to a summary of the rendered conversation when the API refuses the fork (too long)', async () => {
    const r = await runScript([
      big('r1'), big('r2'), big('r3'),
      { error: { status: 400, message: 'prompt is too long: 210000 tokens > 200000 maximum' } },
      summary('SUMMARY-RENDERED'), { reply: 'done' },
    ], 'go', { mods: [bigTool, compactionWith(opts)] })
    expect(r.result.result).toBe('done')
    const asked = r.requests.filter(isSummaryRequest)
    expect(asked.map((q) => (isForkedSummary(q) ? 'fork' : isRenderedSummary(q) ? 'rendered' : '?'))).toEqual(['fork', 'rendered'])
    expect(JSON.stringify(asked[1]!.body.messages)).toContain('<conversation>')
    expect(firstUserText(mainRequests(r.requests).at(-1)!)).toContain('SUMMARY-RENDERED')
  })

  it('is rendered when another model writes the summaries: a fork is the conversation\'s own model', async () => {
    const r = await runScript([big('r1'), big('r2'), big('r3'), summary('SUMMARY-HAIKU'), { reply: 'done' }], 'go', {
      model: MODEL, mods: [bigTool, compactionWith({ ...opts, summaryModel: 'claude-haiku-4-5' })],
    })
    const asked = r.requests.filter(isSummaryRequest)
    expect(asked).toHaveLength(1)
    expect(isRenderedSummary(asked[0]!)).toBe(true)
    expect(asked[0]!.body.model).toBe('claude-haiku-4-5')
  })
})

describe('$.model.fork', () => {
  it('answers nothing-to-fork before the first prompt; later, the text, its tool calls left unrun, and its cost in the session\'s', async () => {
    const seen: unknown[] = []
    const forker = defineMod({
      name: 'forker',
      register(on) {
        const fork = ($: any, prompt: string) => $.model.fork({ prompt }) as Promise<any>
        on('session.start', async ($, e, next) => {
          const r = await next(e)
          seen.push(await fork($, 'too early'))
          return r
        })
        on('turn.complete', async ($, e, next) => {
          const r = await next(e)
          seen.push(await fork($, 'What did you say?'))
          return r
        })
      },
    })
    const r = await runScript([
      { reply: 'the answer' },
      { reply: [{ text: 'I said the answer.' }, { tool_use: { name: 'Big', input: { n: 10, tag: 'never' } } }] },
    ], 'go', { mods: [bigTool, forker] })
    expect(r.result.subtype).toBe('success')
    expect(seen[0]).toMatchObject({ isAnswered: false, reason: 'nothing-to-fork' })
    expect(seen[1]).toMatchObject({ isAnswered: true, text: 'I said the answer.' })
    expect(r.requests).toHaveLength(2)
    expect(r.requests[1]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'What did you say?' })
    // The tool the fork's answer called never ran: no request followed it.
    expect(JSON.stringify(r.requests)).not.toContain('<never>')
  })

  it('refuses a call without a prompt, naming the mod', async () => {
    let error: unknown
    const forker = defineMod({
      name: 'bad-forker',
      register(on) {
        on('turn.complete', async ($, e, next) => {
          const r = await next(e)
          try {
            await ($.model.fork as (a: unknown) => Promise<unknown>)({})
          } catch (err) {
            error = err
          }
          return r
        })
      },
    })
    await runScript([{ reply: 'fine' }], 'go', { mods: [forker] })
    expect(String(error)).toContain('bad-forker: $.model.fork needs { prompt }')
  })
})
