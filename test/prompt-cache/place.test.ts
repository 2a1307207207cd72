import { describe, expect, it } from 'vitest'
import type { ModelRequest } from '../../core/model/types.js'
import { MAX_BREAKPOINTS, placeBreakpoints } from '../../mods/prompt-cache/place.js'

const mark = { type: 'ephemeral' }
const tool = (name: string) => ({ name, description: name, input_schema: { type: 'object' } })
const sections = [{ id: 'intro', scope: 'session' as const }, { id: 'context:env', scope: 'session' as const }]

/** A request two rounds in: prompt, tool call, result, tool call, result. */
function request(): ModelRequest {
  return {
    model: 'claude-sonnet-4-5', max_tokens: 1000,
    system: [{ type: 'text', text: 'You are an agent.\n\n' }, { type: 'text', text: 'Working directory: /tmp' }],
    tools: [tool('Read'), tool('Bash')],
    messages: [
      { role: 'user', content: 'read it' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'one' }] },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm', signature: 's' }, { type: 'tool_use', id: 't2', name: 'Read', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: 'two' }, { type: 'text', text: '' }] },
    ],
  }
}

/** Where the marks are, as `tools[i]`, `system[i]`, `messages[i][j]`. */
function marks(r: ModelRequest): string[] {
  const out: string[] = []
  r.tools?.forEach((t, i) => t.cache_control && out.push(`tools[${i}]`))
  if (Array.isArray(r.system)) r.system.forEach((b, i) => b.cache_control && out.push(`system[${i}]`))
  r.messages.forEach((m, i) => Array.isArray(m.content) && m.content.forEach((b, j) => (b as { cache_control?: unknown }).cache_control && out.push(`messages[${i}][${j}]`)))
  return out
}

describe('prompt-cache breakpoint placement', () => {
  it('marks the last message, the end of the system prompt, the previous round and the stable sections: four at most', () => {
    const r = placeBreakpoints(request(), sections, '5m')
    // The empty text block at the end of the last message is passed over for the result before it.
    expect(marks(r).sort()).toEqual(['messages[2][0]', 'messages[4][0]', 'system[0]', 'system[1]'])
    expect(marks(r)).toHaveLength(MAX_BREAKPOINTS)
    expect((r.messages[4]!.content as any)[0].cache_control).toEqual(mark)
  })

  it('copies what it marks: the history it was given stays unmarked', () => {
    const given = request()
    const before = JSON.stringify(given)
    const r = placeBreakpoints(given, sections, '5m')
    expect(JSON.stringify(given)).toBe(before)
    expect(r.messages[0]).toBe(given.messages[0])
    expect(r.messages[4]).not.toBe(given.messages[4])
  })

  it('never marks a thinking block or an empty text block', () => {
    const r = placeBreakpoints({ ...request(), messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: [{ type: 'text', text: 'a' }, { type: 'thinking', thinking: 't', signature: 's' }] }] }, sections, '5m')
    expect(marks(r)).toContain('messages[1][0]')
    expect(marks(r)).not.toContain('messages[1][1]')
  })

  it('writes a string message out as one text block carrying the mark', () => {
    const r = placeBreakpoints({ ...request(), messages: [{ role: 'user', content: 'hello' }] }, sections, '5m')
    expect(r.messages[0]!.content).toEqual([{ type: 'text', text: 'hello', cache_control: mark }])
  })

  it('counts the marks another mod placed against the four, and gives up the least valuable first', () => {
    const given = request()
    given.tools![0] = { ...given.tools![0]!, cache_control: { type: 'ephemeral' } }
    given.tools![1] = { ...given.tools![1]!, cache_control: { type: 'ephemeral' } }
    expect(marks(placeBreakpoints(given, sections, '5m')).sort()).toEqual(['messages[4][0]', 'system[1]', 'tools[0]', 'tools[1]'])
    given.system = [{ type: 'text', text: 'x', cache_control: mark as never }, ...(given.system as never[])]
    given.messages[0] = { role: 'user', content: [{ type: 'text', text: 'y', cache_control: mark as never }] }
    expect(placeBreakpoints(given, sections, '5m')).toBe(given)
  })

  it('puts the prefix mark on the last tool when there is no system prompt, and no stable-sections mark without mod sections', () => {
    const { system: _, ...bare } = request()
    expect(marks(placeBreakpoints(bare, [], '5m'))).toContain('tools[1]')
    expect(marks(placeBreakpoints(request(), [{ id: 'intro', scope: 'session' }, { id: 'append', scope: 'session' }], '5m'))).not.toContain('system[0]')
  })

  it('gives every mark the 1h TTL when asked', () => {
    const r = placeBreakpoints(request(), sections, '1h')
    expect((r.system as any[])[1].cache_control).toEqual({ type: 'ephemeral', ttl: '1h' })
  })
})

describe('prompt-cache TTLs beside another mod\'s marks', () => {
  const ttls = (r: ModelRequest) => {
    const of = (b: any) => (b.cache_control ? b.cache_control.ttl ?? '5m' : undefined)
    return [...(r.system as any[]).map(of), ...r.messages.flatMap((m) => (Array.isArray(m.content) ? m.content.map(of) : []))].filter(Boolean)
  }
  it('never puts a 1h mark after another mod\'s 5m one (the API refuses that order)', () => {
    const given = request()
    given.system = [{ type: 'text', text: 'first', cache_control: mark as never }, ...(given.system as never[])]
    const r = placeBreakpoints(given, [{ id: 'x', scope: 'session' }, ...sections], '1h')
    expect(ttls(r)).toEqual(['5m', '5m', '5m', '5m'])
  })
  it('never puts a 5m mark before another mod\'s 1h one', () => {
    const given = request()
    given.messages[4] = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: 'two', cache_control: { type: 'ephemeral', ttl: '1h' } } as never] }
    const r = placeBreakpoints(given, sections, '5m')
    expect(ttls(r)).toEqual(['1h', '1h', '1h', '1h'])
  })
})
