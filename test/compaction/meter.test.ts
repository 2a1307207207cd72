import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ContextMeter } from '../../core/loop/context-meter.js'
import type { SessionMessage } from '../../core/events/types.js'
import { microcompact } from '../../mods/compaction/microcompact.js'

// The meter reads only the history; a session here is that history and its meter.
const sessionOf = (messages: MessageParam[] = []) => ({ messages, meter: new ContextMeter(messages) })
type Session = ReturnType<typeof sessionOf>
const contextTokens = (s: Session) => s.meter.tokens()
const noteResponse = (s: Session, sent: MessageParam[], u: ReturnType<typeof usage>) => s.meter.noteResponse(sent, u)
const usage = (input: number) => ({ input_tokens: input, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 })
/** What the fake server counts for the history alone: four characters a token of each message's content. */
const exact = (messages: MessageParam[]) => Math.ceil(messages.reduce((n, m) => n + JSON.stringify(m.content).length, 0) / 4)
/** Known and estimated parts are each rounded up: a token either way is the same figure. */
const near = (a: number, b: number, within = 1) => Math.abs(a - b) <= within

let id = 0
function round(messages: MessageParam[], result = 'x'.repeat(4_000)): void {
  id++
  messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${id}`, name: 'Read', input: { file_path: `/f${id}` } }] })
  messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${id}`, content: result }] })
}

/** One request as the loop makes it: measure, send a copy, then take the API's count (history + 500 tokens of system prompt). */
function request(session: Session): number {
  const before = contextTokens(session)
  const sent = [...session.messages]
  noteResponse(session, sent, usage(exact(sent) + 500))
  return before
}

afterEach(() => { vi.restoreAllMocks() })

describe('the context meter', () => {
  it('serializes each message once: the work per request does not grow with the history', () => {
    const session = sessionOf([{ role: 'user', content: 'go' }])
    const stringify = vi.spyOn(JSON, 'stringify')
    const callsPerRequest = (history: number) => {
      while (session.messages.length < history) {
        round(session.messages)
        contextTokens(session)
        noteResponse(session, [...session.messages], usage(100 * session.messages.length))
      }
      round(session.messages)
      const sent = [...session.messages]
      const figure = usage(exact(sent) + 500)
      stringify.mockClear()
      contextTokens(session)
      noteResponse(session, sent, figure)
      return stringify.mock.calls.length
    }
    const short = callsPerRequest(20)
    const long = callsPerRequest(600)
    // The two new messages, once each.
    expect(short).toBe(2)
    expect(long).toBe(short)
  })

  it('adds what joined since the last response to the API\'s figure, and learns the overhead from it', () => {
    const session = sessionOf([{ role: 'user', content: 'go' }])
    request(session)
    round(session.messages)
    expect(near(contextTokens(session), exact(session.messages) + 500)).toBe(true)
    request(session)
    round(session.messages)
    expect(near(contextTokens(session), exact(session.messages) + 500)).toBe(true)
    expect(session.meter.overhead).toBe(500)
  })

  it('measures a message again when its content is replaced or grows', () => {
    const session = sessionOf([{ role: 'user', content: 'go' }])
    round(session.messages)
    expect(contextTokens(session)).toBe(exact(session.messages))
    const last = session.messages.at(-1)!
    last.content = [...(last.content as never[]), { type: 'text', text: 'y'.repeat(400) }]
    expect(contextTokens(session)).toBe(exact(session.messages))
    ;(last.content as { type: string; text: string }[]).push({ type: 'text', text: 'z'.repeat(800) })
    expect(contextTokens(session)).toBe(exact(session.messages))
  })

  it('does not apply the last figure to a history that replaced the one it counted', () => {
    const session = sessionOf([{ role: 'user', content: 'go' }])
    for (let i = 0; i < 5; i++) { round(session.messages); request(session) }
    // /clear empties the history in place; the new one reaches the old length with other messages.
    session.messages.length = 0
    session.messages.push({ role: 'user', content: 'again' })
    for (let i = 0; i < 5; i++) round(session.messages, 'short')
    expect(near(contextTokens(session), exact(session.messages) + 500)).toBe(true)
  })

  it('microcompaction takes exactly what it cleared off the reported figure', () => {
    const session = sessionOf([{ role: 'user', content: 'go' }])
    for (let i = 0; i < 4; i++) { round(session.messages); request(session) }
    const rule = { atTokens: 0, keepRecent: 1, tools: ['Read'], marker: '[cleared]' }
    const at = { from: 0 }
    // As core installs a mod's rewritten history: in place, then the meter follows what changed.
    const install = (view: SessionMessage[] | undefined): number => {
      const before = [...session.messages]
      const tokens = contextTokens(session)
      if (view) session.messages.splice(0, session.messages.length, ...(view as MessageParam[]))
      session.meter.rewritten(before)
      return tokens - contextTokens(session)
    }
    const originals = [...session.messages]
    const saved = install(microcompact(session.messages as SessionMessage[], rule, at))
    expect(saved).toBeGreaterThan(2_900)
    expect(JSON.stringify(session.messages).match(/\[cleared\]/g)).toHaveLength(3)
    // The figure for what was sent, less the cut, is what the cleared history measures now.
    expect(near(contextTokens(session), exact(session.messages) + 500, 3)).toBe(true)
    expect(microcompact(session.messages as SessionMessage[], rule, at)).toBeUndefined()
    expect(install(undefined)).toBe(0)
    // Nothing handed over was changed: the cleared history is made of new messages.
    expect(JSON.stringify(originals)).not.toContain('[cleared]')
  })
})

describe('images and PDFs', () => {
  const withBlock = (source: Record<string, string>, type: 'image' | 'document'): MessageParam[] => [
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type, source } as never] }] },
  ]

  it('weighs one at what the API counts for it, not at its base64 (a screenshot would read as ~250,000 tokens)', () => {
    const data = 'A'.repeat(1_000_000)
    const image = new ContextMeter(withBlock({ type: 'base64', media_type: 'image/png', data }, 'image')).tokens()
    expect(image).toBeGreaterThan(1_600)
    expect(image).toBeLessThan(1_700)
    const pdf = new ContextMeter(withBlock({ type: 'base64', media_type: 'application/pdf', data }, 'document')).tokens()
    expect(pdf).toBeGreaterThan(60_000)
    expect(pdf).toBeLessThan(60_100)
    // A small one counts as its text: no more than it is.
    const small = new ContextMeter(withBlock({ type: 'base64', media_type: 'image/png', data: 'AAAA' }, 'image')).tokens()
    expect(small).toBeLessThan(40)
  })
})

