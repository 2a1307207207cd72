import { describe, expect, it } from 'vitest'
import { assertNoDanglingToolUse, runScript } from './helpers.js'

describe('the turn loop through the real SDK', () => {
  it('answers a plain prompt with init, assistant and one success result', async () => {
    const run = await runScript([{ reply: 'Hello there' }], 'hi')
    expect(run.messages.map((m) => m.type)).toEqual(['system', 'assistant', 'result'])
    expect(run.messages[0]).toMatchObject({ type: 'system', subtype: 'init', tools: ['Echo', 'Wait', 'Touch', 'Boom'], permissionMode: 'default' })
    expect(run.result).toMatchObject({ subtype: 'success', is_error: false, result: 'Hello there', num_turns: 1, terminal_reason: 'completed', stop_reason: 'end_turn' })
    expect(run.result.total_cost_usd).toBeGreaterThan(0)
    expect(run.requests[0]!.body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }])
    expect(run.requests[0]!.body.tools.map((t: any) => t.name)).toEqual(['Echo', 'Wait', 'Touch', 'Boom'])
  })

  it('runs tools and feeds results back until the model answers', async () => {
    const run = await runScript([
      { reply: [{ text: 'Let me echo.' }, { tool_use: { name: 'Echo', input: { text: 'ping' } } }] },
      { reply: 'Got ping', expect: { toolResults: 1 } },
    ])
    expect(run.result).toMatchObject({ subtype: 'success', result: 'Got ping', num_turns: 2 })
    const toolResult = run.requests[1]!.body.messages[2].content[0]
    expect(toolResult).toMatchObject({ type: 'tool_result', content: 'ping' })
    const user = run.messages.find((m) => m.type === 'user')
    expect(user).toMatchObject({ tool_use_result: 'ping', parent_tool_use_id: null })
    assertNoDanglingToolUse(run.requests)
  })

  it('leaves a response\'s empty text block out of the history the next request sends, as the API refuses one', async () => {
    const run = await runScript([
      { reply: [{ thinking: 'plan', signature: 'sig' }, { text: '' }, { text: ' \n' }, { tool_use: { name: 'Echo', input: { text: 'ping' } } }] },
      { reply: 'Got ping' },
    ])
    expect(run.result).toMatchObject({ subtype: 'success', result: 'Got ping' })
    expect(run.requests[1]!.body.messages[1].content.map((b: any) => b.type)).toEqual(['thinking', 'tool_use'])
  })

  it('feeds unknown tools, invalid input and throwing tools back as error results', async () => {
    const run = await runScript([
      { reply: [
        { tool_use: { name: 'Nope', input: {} } },
        { tool_use: { name: 'Echo', input: { text: 5 } } },
        { tool_use: { name: 'Boom', input: {} } },
        { tool_use: { name: 'Echo', input: { text: 'fine' } } },
      ] },
      { reply: 'done' },
    ])
    const results = run.requests[1]!.body.messages[2].content
    expect(results.map((r: any) => r.is_error ?? false)).toEqual([true, true, true, false])
    expect(results[0].content).toContain('No such tool available: Nope')
    expect(results[1].content).toContain('text')
    expect(results[2].content).toContain('kaboom')
    expect(run.result.subtype).toBe('success')
  })
})
