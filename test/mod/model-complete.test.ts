import { describe, expect, it } from 'vitest'
import type { CompleteRequest } from '../../core/mod/contracts.js'
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
})
