import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { MessageDisplayInput } from '../../core/events/types.js'
import { defineMod } from '../../core/mod/define.js'
import transcripts from '../../mods/transcripts/index.js'
import { runScript, toolsMod } from '../loop/helpers.js'

const jsonlFiles = (dir: string): string[] => readdirSync(dir, { recursive: true, withFileTypes: true })
  .filter((d) => d.isFile() && d.name.endsWith('.jsonl')).map((d) => join(d.parentPath, d.name))

/** The text the caller was streamed: every text delta of the main loop, in order. */
const streamedText = (messages: { type: string }[]) => messages
  .flatMap((m: any) => (m.type === 'stream_event' && !m.parent_tool_use_id && m.event.type === 'content_block_delta' && m.event.delta.type === 'text_delta' ? [m.event.delta.text] : []))
  .join('')

describe('message.display with streamed deltas (includePartialMessages, the terminal)', () => {
  it('holds text deltas, passes completed lines through message.display in batches, and streams the rewritten text', async () => {
    const home = mkdtempSync(join(tmpdir(), 'modloop-display-stream-'))
    const seen: MessageDisplayInput[] = []
    const shout = defineMod({ name: 'shout', register: (on) => on('message.display', async (_$, e, next) => {
      seen.push(e)
      return { text: (await next(e)).text.toUpperCase() }
    }) })
    const answer = 'the first line of the answer\nthe second line, a longer one\nand an unfinished end'
    const run = await runScript([{ reply: answer }], 'go', { mods: [toolsMod(), transcripts, shout], includePartialMessages: true, env: { MODLOOP_HOME: home } })
    expect(run.error).toBeUndefined()

    expect(streamedText(run.messages)).toBe(answer.toUpperCase())
    // Every delta the caller got is whole lines but the last, which ends the block.
    const deltas = run.messages.filter((m: any) => m.type === 'stream_event' && m.event.delta?.type === 'text_delta').map((m: any) => m.event.delta.text as string)
    expect(deltas.slice(0, -1).every((d) => d.endsWith('\n'))).toBe(true)
    // The batches: completed lines as they complete, then the rest with `final`; one message id throughout.
    expect(seen.map((e) => e.delta).join('')).toBe(answer)
    expect(seen.map((e) => e.index)).toEqual(seen.map((_, i) => i))
    expect(seen.map((e) => e.final)).toEqual([...seen.slice(1).map(() => false), true])
    expect(seen.at(-1)!.delta).toBe('and an unfinished end')
    expect(new Set(seen.map((e) => e.messageId)).size).toBe(1)
    expect(seen.every((e) => e.delta === '' || e.delta.endsWith('\n') || e.final)).toBe(true)
    // The assistant message and the result show the rewrite; message.display ran once per batch, not again for them.
    const assistant = run.messages.find((m) => m.type === 'assistant') as any
    expect(assistant.message.content[0].text).toBe(answer.toUpperCase())
    expect(run.result.result).toBe(answer.toUpperCase())
    // The stored transcript keeps the original.
    const transcript = jsonlFiles(join(home, 'projects')).filter((f) => f.endsWith(`${run.result.session_id}.jsonl`)).map((f) => readFileSync(f, 'utf8')).join('')
    expect(transcript).toContain(JSON.stringify(answer))
    expect(transcript).not.toContain('THE FIRST LINE')
  })

  it('a text block that ends with a newline has an empty final batch; without a display handler deltas pass as they come', async () => {
    const seen: MessageDisplayInput[] = []
    const mark = defineMod({ name: 'mark', register: (on) => on('message.display', async (_$, e, next) => {
      seen.push(e)
      return next(e)
    }) })
    const run = await runScript([{ reply: 'one line\n' }], 'go', { mods: [toolsMod(), mark], includePartialMessages: true })
    expect(streamedText(run.messages)).toBe('one line\n')
    expect(seen.map((e) => [e.delta, e.final])).toEqual([['one line\n', false], ['', true]])

    const plain = await runScript([{ reply: 'no display handler here' }], 'go', { mods: [toolsMod()], includePartialMessages: true })
    const deltas = plain.messages.filter((m: any) => m.type === 'stream_event' && m.event.delta?.type === 'text_delta')
    // The scripted server sends 16 characters a delta: they reach the caller unheld.
    expect(deltas.length).toBeGreaterThan(1)
    expect(streamedText(plain.messages)).toBe('no display handler here')
  })
})
