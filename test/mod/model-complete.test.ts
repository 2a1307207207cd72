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
