import { describe, expect, it } from 'vitest'
import type { CompleteRequest, CompleteResult } from '../../core/mod/contracts.js'
import { createTestHost, defineMod } from '../../testing.js'

/** Makes each completion as a prompt comes in; keeps the answer's text, or the rejection's message. */
function completer(said: string[], requests: CompleteRequest[]) {
  return defineMod({
    name: 'completer',
    register(on) {
      on('prompt.submit', async ($, e, next) => {
        for (const req of requests) {
          said.push(await $.model.complete(req).then((r) => (r.isAnswered ? r.text : r.reason), (err: Error) => `rejected: ${err.message}`))
        }
        return next(e)
      })
    },
  })
}

describe('$.model.complete', () => {
  it('refuses to send a request with no prompt or a cap that is not a whole number of tokens, naming the mod and the field', async () => {
    const said: string[] = []
    const bad = [{ prompt: 'hi', maxTokens: 0 }, { prompt: 'hi', maxTokens: 2.5 }, { prompt: '' }, {} as CompleteRequest]
    const t = await createTestHost({ mods: [completer(said, [...bad, { prompt: 'hi', maxTokens: 10 }])], script: [{ reply: 'fine' }, { reply: 'ok' }] })
    await t.run('hello')
    expect(said).toEqual([
      expect.stringMatching(/^rejected: completer: \$\.model\.complete.*maxTokens/),
      expect.stringMatching(/^rejected: completer: \$\.model\.complete.*maxTokens/),
      expect.stringMatching(/^rejected: completer: \$\.model\.complete.*prompt/),
      expect.stringMatching(/^rejected: completer: \$\.model\.complete.*prompt/),
      'fine',
    ])
    expect(t.model.requests.map((r) => r.max_tokens)).toEqual([10, expect.any(Number)])
    await t.close()
  })

  it('sends the effort asked for, and refuses one it does not know or a timeoutMs out of range, naming the field', async () => {
    const said: string[] = []
    const bad = [{ prompt: 'hi', effort: 'hard' }, { prompt: 'hi', timeoutMs: 0 }, { prompt: 'hi', timeoutMs: 2 ** 31 }] as CompleteRequest[]
    const t = await createTestHost({ mods: [completer(said, [...bad, { prompt: 'hi', model: 'claude-opus-4-6', effort: 'low', timeoutMs: 60_000 }])], script: [{ reply: 'fine' }, { reply: 'ok' }] })
    await t.run('hello')
    expect(said).toEqual([
      expect.stringMatching(/^rejected: completer: \$\.model\.complete.*effort.*hard/),
      expect.stringMatching(/^rejected: completer: \$\.model\.complete.*timeoutMs/),
      expect.stringMatching(/^rejected: completer: \$\.model\.complete.*timeoutMs/),
      'fine',
    ])
    expect(t.model.requests[0]?.output_config).toEqual({ effort: 'low' })
    await t.close()
  })

  it('takes prompt and system as { text, cache? } blocks: sent as text blocks, cache as a breakpoint', async () => {
    const said: string[] = []
    const req: CompleteRequest = {
      system: [{ text: 'You sort lists.', cache: true }, { text: 'Be brief.' }],
      prompt: [{ text: 'A long shared document.', cache: true }, { text: 'Sort: b, a' }],
    }
    const t = await createTestHost({ mods: [completer(said, [req])], script: [{ reply: 'a, b' }, { reply: 'ok' }] })
    await t.run('hello')
    expect(said).toEqual(['a, b'])
    expect(t.model.requests[0]?.system).toEqual([
      { type: 'text', text: expect.stringMatching(/^You are an agent running in modloop\..*\n\n$/) },
      { type: 'text', text: 'You sort lists.', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'Be brief.' },
    ])
    expect(t.model.requests[0]?.messages).toEqual([{ role: 'user', content: [
      { type: 'text', text: 'A long shared document.', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'Sort: b, a' },
    ] }])
    await t.close()
  })

  it('opens the system prompt with the main loop\'s identity block, as prompt.section answered it, then system', async () => {
    const said: string[] = []
    const renamer = defineMod({
      name: 'renamer',
      register(on) {
        on('prompt.section', { name: 'intro' }, (_$, e, next) => next({ ...e, text: 'You are Tally, a bookkeeping agent.' }))
      },
    })
    const t = await createTestHost({ mods: [renamer, completer(said, [{ prompt: 'Sort: b, a', system: 'You sort lists.' }, { prompt: 'Sort: d, c' }])], script: [{ reply: 'a, b' }, { reply: 'c, d' }, { reply: 'ok' }] })
    await t.run('hello')
    expect(said).toEqual(['a, b', 'c, d'])
    expect(t.model.requests[0]?.system).toEqual([{ type: 'text', text: 'You are Tally, a bookkeeping agent.\n\n' }, { type: 'text', text: 'You sort lists.' }])
    expect(t.model.requests[1]?.system).toEqual([{ type: 'text', text: 'You are Tally, a bookkeeping agent.' }])
    // The main loop opens with the same block.
    expect((t.model.requests[2]?.system as { text: string }[])[0]?.text).toMatch(/^You are Tally, a bookkeeping agent\./)
    await t.close()
  })

  it('sends system alone under a custom system prompt: it has no identity block to open with', async () => {
    const said: string[] = []
    const t = await createTestHost({ mods: [completer(said, [{ prompt: 'Sort: b, a', system: 'You sort lists.' }])], script: [{ reply: 'a, b' }, { reply: 'ok' }] })
    await t.run('hello', { systemPrompt: 'You are a pirate.' })
    expect(t.model.requests[0]?.system).toEqual([{ type: 'text', text: 'You sort lists.' }])
    await t.close()
  })

  it('refuses blocks it cannot send, naming the field: no text, cache_control of their own, a fifth breakpoint', async () => {
    const said: string[] = []
    const marked = (n: number) => Array.from({ length: n }, (_, i) => ({ text: `part ${i}`, cache: true }))
    const bad = [
      { prompt: [] }, { prompt: [{ text: '' }] }, { prompt: ['hi'] }, { prompt: [{ text: 'hi', cache: 'yes' }] },
      { prompt: [{ text: 'hi', cache_control: { type: 'ephemeral' } }] },
      { system: marked(2), prompt: marked(3) },
    ] as unknown as CompleteRequest[]
    const t = await createTestHost({ mods: [completer(said, [...bad, { system: marked(1), prompt: marked(3) }])], script: [{ reply: 'fine' }, { reply: 'ok' }] })
    await t.run('hello')
    expect(said).toEqual([
      expect.stringMatching(/^rejected: completer: \$\.model\.complete needs \{ prompt \}/),
      'rejected: completer: $.model.complete\'s prompt[0] must be a block { text, cache? } whose text is not empty',
      'rejected: completer: $.model.complete\'s prompt[0] must be a block { text, cache? } whose text is not empty',
      'rejected: completer: $.model.complete\'s prompt[0].cache must be true or false, got yes',
      'rejected: completer: $.model.complete\'s prompt[0] carries cache_control: mark a cache breakpoint with cache: true instead',
      'rejected: completer: $.model.complete\'s prompt[2] is block 5 marked cache: the API takes at most 4 cache breakpoints in a request',
      'fine',
    ])
    expect(JSON.stringify(t.model.requests[0]).split('cache_control').length - 1).toBe(4)
    await t.close()
  })

  it('the breakpoints asked for follow the prompt-cache mod: an hour with ENABLE_PROMPT_CACHING_1H, none with DISABLE_PROMPT_CACHING', async () => {
    const req: CompleteRequest = { system: [{ text: 'You sort lists.', cache: true }], prompt: [{ text: 'Sort: b, a', cache: true }] }
    const sent = async (env: Record<string, string>) => {
      const said: string[] = []
      const t = await createTestHost({ mods: ['prompt-cache', completer(said, [req])], env, script: [{ reply: 'a, b' }, { reply: 'ok' }] })
      await t.run('hello')
      const request = t.model.requests[0]!
      await t.close()
      expect(said).toEqual(['a, b'])
      return [(request.system as { cache_control?: unknown }[])[1]?.cache_control, (request.messages[0]!.content as { cache_control?: unknown }[])[0]?.cache_control]
    }
    expect(await sent({})).toEqual([{ type: 'ephemeral' }, { type: 'ephemeral' }])
    expect(await sent({ ENABLE_PROMPT_CACHING_1H: '1' })).toEqual([{ type: 'ephemeral', ttl: '1h' }, { type: 'ephemeral', ttl: '1h' }])
    expect(await sent({ DISABLE_PROMPT_CACHING: '1' })).toEqual([undefined, undefined])
  })

  it('gives up at timeoutMs: the answer is aborted', async () => {
    const said: string[] = []
    const t = await createTestHost({ mods: [completer(said, [{ prompt: 'hi', timeoutMs: 5 }])], script: [{ reply: 'never', stallAfter: 0 }, { reply: 'ok' }] })
    await t.run('hello')
    expect(said).toEqual(['aborted'])
    await t.close()
  })

  it('counts a retried stream once: the usage of the attempt that answered, priced as one request', async () => {
    const answers: CompleteResult[] = []
    const mod = defineMod({
      name: 'completer',
      register(on) {
        on('prompt.submit', async ($, e, next) => {
          answers.push(await $.model.complete({ prompt: 'sum it up', model: 'claude-haiku-5-5' }))
          return next(e)
        })
      },
    })
    // The first attempt is cut before a block completes and is retried; each would send a 60K-token
    // prompt, and two summed (120K) would be past the model's 100K long-context line.
    const t = await createTestHost({ mods: [mod], script: [
      { reply: 'cut sh', truncateAfter: 2, usage: { input_tokens: 60_000, output_tokens: 30 } },
      { reply: 'the summary', usage: { input_tokens: 60_000, output_tokens: 40 } },
      { reply: 'ok', usage: { input_tokens: 10, output_tokens: 1 } },
    ] })
    const { result } = await t.run('hello')
    expect(answers[0]).toMatchObject({ isAnswered: true, text: 'the summary', usage: { input_tokens: 60_000, output_tokens: 40 } })
    expect(result.modelUsage['claude-haiku-5-5']).toMatchObject({ inputTokens: 60_000, outputTokens: 40 })
    // $0.10 and $0.50 a million tokens, at the plain rate.
    expect(result.modelUsage['claude-haiku-5-5']!.costUSD).toBeCloseTo((60_000 * 0.1 + 40 * 0.5) / 1e6, 12)
    await t.close()
  })
})
