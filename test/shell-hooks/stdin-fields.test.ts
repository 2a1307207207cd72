import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeBox, dump, dumped, writeSettings, cmd, run, COMMON, TOOL_COMMON, keys, type Box } from './helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

describe('stdin fields', () => {
  it('each wired event gets the common fields and exactly its own', async () => {
    const events = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SessionEnd']
    await writeSettings(box, Object.fromEntries(events.map((e) => [e, [{ hooks: [cmd(dump(box, e))] }]])))
    const r = await run(box, [
      { reply: [{ tool_use: { id: 'toolu_1', name: 'Echo', input: { text: 'hi' } } }, { tool_use: { id: 'toolu_2', name: 'Boom', input: {} } }] },
      { reply: 'all done' },
    ], 'please echo')
    expect(r.result.terminal_reason).toBe('completed')
    const [start] = await dumped(box, 'SessionStart')
    expect(keys(start!)).toEqual(['cwd', 'hook_event_name', 'model', 'session_id', 'source', 'transcript_path'])
    expect(start).toMatchObject({ source: 'startup', cwd: box.project, session_id: r.result.session_id, hook_event_name: 'SessionStart' })
    expect(start!.transcript_path).toMatch(new RegExp(`${r.result.session_id}\\.jsonl$`))
    const [submit] = await dumped(box, 'UserPromptSubmit')
    expect(keys(submit!)).toEqual([...COMMON, 'prompt'].sort())
    expect(submit).toMatchObject({ prompt: 'please echo', permission_mode: 'default' })
    const pre = await dumped(box, 'PreToolUse')
    expect(pre.map(keys)).toEqual([[...TOOL_COMMON, 'tool_input', 'tool_name', 'tool_use_id'].sort(), [...TOOL_COMMON, 'tool_input', 'tool_name', 'tool_use_id'].sort()])
    expect(pre.find((p) => p.tool_use_id === 'toolu_1')).toMatchObject({ tool_name: 'Echo', tool_input: { text: 'hi' }, tool_use_id: 'toolu_1' })
    const [post] = await dumped(box, 'PostToolUse')
    expect(keys(post!)).toEqual([...TOOL_COMMON, 'duration_ms', 'tool_input', 'tool_name', 'tool_response', 'tool_use_id'].sort())
    expect(post).toMatchObject({ tool_name: 'Echo', tool_response: 'hi', tool_use_id: 'toolu_1' })
    const [failure] = await dumped(box, 'PostToolUseFailure')
    expect(keys(failure!)).toEqual([...TOOL_COMMON, 'duration_ms', 'error', 'is_interrupt', 'tool_input', 'tool_name', 'tool_use_id'].sort())
    expect(failure!.is_interrupt).toBe(false)
    expect(failure!.error).toContain('kaboom')
    const [stop] = await dumped(box, 'Stop')
    expect(keys(stop!)).toEqual([...TOOL_COMMON, 'background_tasks', 'last_assistant_message', 'session_crons', 'stop_hook_active'].sort())
    expect(stop).toMatchObject({ stop_hook_active: false, last_assistant_message: 'all done' })
    const [end] = await dumped(box, 'SessionEnd')
    expect(keys(end!)).toEqual(['cwd', 'hook_event_name', 'prompt_id', 'reason', 'session_id', 'transcript_path'])
    expect(end!.reason).toBe('other')
    // One id for the prompt, the same on every event it caused.
    const ids = new Set([submit, ...pre, post, failure, stop, end].map((e) => e!.prompt_id))
    expect(ids.size).toBe(1)
    expect([...ids][0]).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('each user prompt has its own prompt_id', async () => {
    await writeSettings(box, { UserPromptSubmit: [{ hooks: [cmd(dump(box, 'UserPromptSubmit'))] }], Stop: [{ hooks: [cmd(dump(box, 'Stop'))] }] })
    async function* prompts() {
      for (const text of ['first', 'second']) yield { type: 'user' as const, message: { role: 'user' as const, content: text }, parent_tool_use_id: null, session_id: '' }
    }
    const r = await run(box, [{ reply: 'one' }, { reply: 'two' }], prompts() as never)
    expect(r.result.subtype).toBe('success')
    const submits = await dumped(box, 'UserPromptSubmit')
    const stops = await dumped(box, 'Stop')
    expect(submits.map((e) => e.prompt)).toEqual(['first', 'second'])
    expect(stops.map((e) => e.prompt_id)).toEqual(submits.map((e) => e.prompt_id))
    expect(submits[0]!.prompt_id).not.toBe(submits[1]!.prompt_id)
  })
})
