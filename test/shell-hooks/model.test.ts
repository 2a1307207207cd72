import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import shellHooks from '../../mods/shell-hooks/index.js'
import { conversation } from '../sdk/conversation.js'
import { toolsMod } from '../loop/helpers.js'
import { makeBox, dump, dumped, writeSettings, cmd, run, hooksMod, lastUserTexts, withOptions, COMMON, keys, json, type Box } from './helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

const SWITCH_FIELDS = ['cache_ttl', 'context_tokens', 'estimated_cache_write_usd', 'from_model', 'prompt_cache_warm', 'pricing', 'requested_model', 'source', 'to_model']

describe('PreModelSwitch / PostModelSwitch', () => {
  it('a PreModelSwitch block refuses the switch; PostModelSwitch context goes with the next request', async () => {
    await writeSettings(box, {
      PreModelSwitch: [
        { hooks: [cmd(dump(box, 'PreModelSwitch'))] },
        { matcher: 'claude-opus-5-5', hooks: [cmd("echo 'opus is too dear' >&2; exit 2")] },
      ],
      PostModelSwitch: [{ hooks: [cmd(`${dump(box, 'PostModelSwitch')}; echo 'haiku: keep answers short'`)] }],
    })
    const c = await conversation([{ reply: 'one' }, { reply: 'two' }], { cwd: box.project, model: 'claude-sonnet-4-5', mods: [toolsMod(), hooksMod(box)] })
    try {
      await c.say('first')
      await expect(c.q.setModel('opus')).rejects.toThrow('opus is too dear')
      await c.q.setModel('haiku')
      await c.say('second')
    } finally {
      await c.end()
    }
    expect(c.server.requests.map((r) => (r.body as any).model)).toEqual(['claude-sonnet-4-5', 'claude-haiku-5-5'])
    const pre = await dumped(box, 'PreModelSwitch')
    expect(pre.map((p) => p.to_model)).toEqual(['claude-opus-5-5', 'claude-haiku-5-5'])
    expect(keys(pre[0]!)).toEqual([...COMMON.filter((k) => k !== 'permission_mode'), ...SWITCH_FIELDS].sort())
    expect(pre[0]).toMatchObject({ from_model: 'claude-sonnet-4-5', requested_model: 'opus', source: 'sdk', prompt_cache_warm: false, cache_ttl: '5m' })
    const post = await dumped(box, 'PostModelSwitch')
    expect(post).toHaveLength(1)
    expect(post[0]).toMatchObject({ from_model: 'claude-sonnet-4-5', to_model: 'claude-haiku-5-5' })
    expect(lastUserTexts(c.server.requests[1]!.body).join('\n')).toContain('haiku: keep answers short')
  })

  it('ask is refused: nobody can be asked', async () => {
    await writeSettings(box, { PreModelSwitch: [{ hooks: [cmd(json({ hookSpecificOutput: { hookEventName: 'PreModelSwitch', permissionDecision: 'ask', permissionDecisionReason: 'costs more' } }))] }] })
    const c = await conversation([{ reply: 'one' }], { cwd: box.project, mods: [toolsMod(), hooksMod(box)] })
    try {
      await c.say('first')
      await expect(c.q.setModel('opus')).rejects.toThrow('costs more')
    } finally {
      await c.end()
    }
  })
})

describe('MessageDisplay', () => {
  it('displayContent changes what is shown of each assistant text, never what is recorded or sent', async () => {
    await writeSettings(box, { MessageDisplay: [{ hooks: [cmd(`${dump(box, 'MessageDisplay')}; ${json({ hookSpecificOutput: { hookEventName: 'MessageDisplay', displayContent: '[redacted]' } })}`)] }] })
    const r = await run(box, [{ reply: [{ text: 'the key is 1234' }, { tool_use: { id: 'toolu_e', name: 'Echo', input: { text: 'hi' } } }] }, { reply: 'done' }])
    const shown = r.messages.filter((m: any) => m.type === 'assistant' && m.message.content[0].type === 'text').map((m: any) => m.message.content[0].text)
    expect(shown).toEqual(['[redacted]', '[redacted]'])
    expect(r.result.result).toBe('[redacted]')
    expect(JSON.stringify(r.requests[1]!.body.messages)).toContain('the key is 1234')
    const fired = await dumped(box, 'MessageDisplay')
    expect(fired.map((f) => f.delta)).toEqual(['the key is 1234', 'done'])
    expect(keys(fired[0]!)).toEqual([...COMMON, 'delta', 'final', 'index', 'message_id', 'turn_id'].sort())
    expect(fired[0]).toMatchObject({ index: 0, final: true, turn_id: expect.any(String), message_id: expect.any(String) })
  })

  it('a failing hook shows the original text, with no notice', async () => {
    await writeSettings(box, { MessageDisplay: [{ hooks: [cmd('exit 1')] }] })
    const r = await run(box, [{ reply: 'plain' }])
    expect(r.result.result).toBe('plain')
    expect(r.messages.some((m: any) => m.type === 'system' && m.subtype === 'informational' && String(m.content).includes('MessageDisplay'))).toBe(false)
  })
})

describe('Notification idle_prompt', () => {
  it('fires once a streaming session has waited after a turn, not while turns run', async () => {
    await writeSettings(box, { Notification: [{ matcher: 'idle_prompt', hooks: [cmd(dump(box, 'Notification'))] }] })
    const mod = withOptions(shellHooks, { home: box.home, managedDir: false, trustStore: box.store, idleNotifyMs: 150 })
    const c = await conversation([{ reply: 'one' }, { reply: 'two' }], { cwd: box.project, mods: [toolsMod(), mod] })
    try {
      await c.say('first')
      await new Promise((r) => setTimeout(r, 400))
      await c.say('second')
    } finally {
      await c.end()
    }
    const fired = await dumped(box, 'Notification')
    expect(fired).toHaveLength(1)
    expect(keys(fired[0]!)).toEqual(['cwd', 'hook_event_name', 'message', 'notification_type', 'prompt_id', 'session_id', 'transcript_path'])
    expect(fired[0]).toMatchObject({ notification_type: 'idle_prompt', message: expect.stringContaining('waiting for your input') })
  })
})
