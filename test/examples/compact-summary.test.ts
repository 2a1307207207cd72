import { afterEach, describe, expect, it } from 'vitest'
import type { SessionMessage } from '../../index.js'
import { createTestHost, type TestHost } from '../../testing.js'
import { example } from './paths.js'

let t: TestHost | undefined
afterEach(() => t?.close())

const history: SessionMessage[] = [
  { role: 'user', content: 'fix the failing test in math.js' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/p/math.js' } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'code' }] },
  { role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'Edit', input: { file_path: '/p/math.js' } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: 'ok' }] },
  { role: 'assistant', content: [{ type: 'text', text: 'fixed' }] },
  { role: 'user', content: 'now run the tests' },
  { role: 'assistant', content: [{ type: 'text', text: 'they pass' }] },
]

// What compacts beneath the mod (the compaction mod, when loaded); this example answers before it is reached.
const core = () => ({ skip: 'nothing beneath compacted' })

describe('example: compact-summary', () => {
  it('answers session.compact with a summary plus the latest exchange', async () => {
    t = await createTestHost({ mods: [[example('mods/compact-summary'), { keep: 2 }]] })
    const r = await t.emit('session.compact', { trigger: 'manual', instructions: 'the test fix', messages: history }, core)
    if (!('messages' in r)) throw new Error('expected messages')
    expect(r.messages).toHaveLength(3)
    const summary = (r.messages[0]!.content as { text: string }[])[0]!.text
    expect(summary).toContain('Summary of the 6 earlier messages (focus: the test fix)')
    expect(summary).toContain('The user first asked: fix the failing test in math.js')
    expect(summary).toContain('Tools used: Read, Edit')
    expect(summary).toContain('Files touched: /p/math.js')
    expect(r.messages.slice(1)).toEqual(history.slice(6))
  })

  it('never starts the kept part at a tool result, and skips a short history', async () => {
    t = await createTestHost({ mods: [[example('mods/compact-summary'), { keep: 4 }]] })
    const r = await t.emit('session.compact', { trigger: 'auto', messages: history }, core)
    if (!('messages' in r)) throw new Error('expected messages')
    expect(r.messages[1]).toEqual(history[6])
    expect(await t.emit('session.compact', { trigger: 'auto', messages: history.slice(0, 3) }, core)).toEqual({ skip: 'only 3 messages; nothing to compact' })
  })
})
