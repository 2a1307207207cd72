import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeBox, dump, dumped, writeSettings, cmd, run, lastUserTexts, notices, TOOL_COMMON, keys, json, type Box } from './helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

const batch = { reply: [{ tool_use: { id: 'toolu_1', name: 'Echo', input: { text: 'hi' } } }, { tool_use: { id: 'toolu_2', name: 'Boom', input: {} } }] }

describe('PostToolBatch', () => {
  it('fires once per batch with every call and what the model reads; its context goes beside the results', async () => {
    await writeSettings(box, { PostToolBatch: [{ hooks: [cmd(`${dump(box, 'PostToolBatch')}; ${json({ hookSpecificOutput: { hookEventName: 'PostToolBatch', additionalContext: 'two calls done' } })}`)] }] })
    const r = await run(box, [batch, { reply: 'ok' }])
    expect(r.result.result).toBe('ok')
    const fired = await dumped(box, 'PostToolBatch')
    expect(fired).toHaveLength(1)
    expect(keys(fired[0]!)).toEqual([...TOOL_COMMON, 'tool_calls'].sort())
    expect(fired[0]!.tool_calls).toEqual([
      { tool_name: 'Echo', tool_input: { text: 'hi' }, tool_use_id: 'toolu_1', tool_response: 'hi' },
      { tool_name: 'Boom', tool_input: {}, tool_use_id: 'toolu_2', tool_response: expect.stringContaining('kaboom') },
    ])
    const texts = lastUserTexts(r.requests[1]!.body)
    expect(texts.slice(0, 2)).toEqual(['hi', expect.stringContaining('kaboom')])
    expect(texts.join('\n')).toContain('PostToolBatch hook additional context: two calls done')
  })

  it('a block stops the loop before the next request; the reason is a warning and stays in the conversation', async () => {
    await writeSettings(box, { PostToolBatch: [{ hooks: [cmd(json({ decision: 'block', reason: 'budget for tools is spent' }))] }] })
    const r = await run(box, [batch, { reply: 'never' }])
    expect(r.requests).toHaveLength(1)
    expect(r.result).toMatchObject({ terminal_reason: 'hook_stopped', result: 'budget for tools is spent' })
    expect(notices(r.messages).some((n) => n.includes('budget for tools is spent'))).toBe(true)
  })

  it('exit 2 stops the loop with stderr', async () => {
    await writeSettings(box, { PostToolBatch: [{ hooks: [cmd("echo 'stop here' >&2; exit 2")] }] })
    const r = await run(box, [batch, { reply: 'never' }])
    expect(r.requests).toHaveLength(1)
    expect(r.result).toMatchObject({ terminal_reason: 'hook_stopped', result: "[echo 'stop here' >&2; exit 2]: stop here\n" })
  })
})
