import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cmd, dump, dumped, json, makeBox, run, writeSettings, type Box } from './helpers.js'

let box: Box
beforeEach(async () => {
  box = await makeBox()
})
afterEach(() => box.remove())

const textDeltas = (messages: readonly { type: string }[]): string[] => messages
  .flatMap((m: any) => (m.type === 'stream_event' && m.event.type === 'content_block_delta' && m.event.delta.type === 'text_delta' ? [m.event.delta.text] : []))

describe('MessageDisplay with streamed deltas', () => {
  it('without MessageDisplay hooks, the answer streams as it arrives: nothing holds it line by line', async () => {
    const r = await run(box, [{ reply: 'a single line that is long enough for several deltas' }], 'go', { includePartialMessages: true })
    expect(textDeltas(r.messages).length).toBeGreaterThan(1)
    expect(textDeltas(r.messages).join('')).toBe('a single line that is long enough for several deltas')
  })

  it('with one, each batch of completed lines goes through the hook and its displayContent is what streams', async () => {
    await writeSettings(box, { MessageDisplay: [{ hooks: [cmd(`${dump(box, 'MessageDisplay')}; ${json({ hookSpecificOutput: { hookEventName: 'MessageDisplay', displayContent: '[line]\n' } })}`)] }] })
    const r = await run(box, [{ reply: 'first line\nsecond line\n' }], 'go', { includePartialMessages: true })
    const fired = await dumped(box, 'MessageDisplay')
    expect(fired.map((f) => [f.delta, f.index, f.final])).toEqual([['first line\n', 0, false], ['second line\n', 1, false], ['', 2, true]])
    expect(new Set(fired.map((f) => f.message_id)).size).toBe(1)
    expect(textDeltas(r.messages).join('')).toBe('[line]\n[line]\n[line]\n')
    expect(JSON.stringify(r.requests)).not.toContain('[line]')
  })
})
