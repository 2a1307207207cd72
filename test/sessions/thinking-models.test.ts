import { beforeAll, describe, expect, it } from 'vitest'
import { run, tempCwd } from './helpers.js'

let cwd: string
beforeAll(async () => {
  cwd = await tempCwd()
})

const echo = (text: string) => ({ tool_use: { name: 'Echo', input: { text } } })
const blockTypes = (request: { body: unknown }) => (request.body as any).messages.filter((m: any) => m.role === 'assistant').map((m: any) => m.content.map((b: any) => b.type))

// A thinking block's signature holds only for the model that wrote it: another model refuses it with a 400.
describe('thinking other models wrote is not sent back', () => {
  it('the fallback model taking over mid-turn gets the calls without the thinking before them', async () => {
    const r = await run([
      { reply: [{ thinking: 'plan', signature: 'sig-a' }, echo('one')] },
      { error: { status: 529 }, times: 3 },
      { reply: 'from fallback', expect: { model: 'claude-opus-4-5' } },
    ], 'go', cwd, { model: 'claude-sonnet-4-5', fallbackModel: 'claude-opus-4-5', env: { MODLOOP_MAX_RETRIES: '2' } })
    expect(r.result).toMatchObject({ subtype: 'success', result: 'from fallback' })
    expect(blockTypes(r.requests[1]!)).toEqual([['thinking', 'tool_use']])
    expect(blockTypes(r.requests.at(-1)!)).toEqual([['tool_use']])
  })

  it('a resumed session keeps the thinking of its own model (a dated id too) and drops the rest', async () => {
    const first = await run([{ model: 'claude-sonnet-4-5-20250929', reply: [{ thinking: 'T1', signature: 'sig-1' }, { text: 'one' }] }], 'first', cwd, { model: 'claude-sonnet-4-5' })
    const same = await run([{ reply: 'two' }], 'second', cwd, { resume: first.sessionId, model: 'claude-sonnet-4-5' })
    expect(blockTypes(same.requests[0]!)).toEqual([['thinking', 'text']])
    const other = await run([{ reply: [{ thinking: 'T3', signature: 'sig-3' }, { text: 'three' }] }], 'third', cwd, { resume: first.sessionId, model: 'claude-opus-4-5' })
    expect(blockTypes(other.requests[0]!)).toEqual([['text'], ['text']])
    const again = await run([{ reply: 'four' }], 'fourth', cwd, { resume: first.sessionId, model: 'claude-opus-4-5' })
    expect(blockTypes(again.requests[0]!)).toEqual([['text'], ['text'], ['thinking', 'text']])
  })
})
