import { appendFile, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { CanUseTool } from '../../core/tools/pipeline.js'
import autoMode from '../../mods/auto-mode/index.js'
import permissions from '../../mods/permissions/index.js'
import { makeBox, dump, dumped, writeSettings, cmd, run, script, withOptions, COMMON, TOOL_COMMON, keys, type Box, type Hooks } from './helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

const touch = (label: string, id: string) => ({ tool_use: { id, name: 'Touch', input: { label } } })
const answer = (decision: Record<string, unknown>) =>
  cmd(`${dump(box, 'PermissionRequest')}; printf '%s' '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } })}'`)
const perms = () => withOptions(permissions, { home: box.home, trustStore: box.store })
const settings = (hooks: Hooks, extra: Record<string, unknown> = {}) => writeSettings(box, hooks, join(box.project, '.claude', 'settings.json'), extra)

describe('PermissionRequest', () => {
  it('answers an ask the mode raised: allow with updatedInput runs the rewrite; updatedPermissions stop the next ask', async () => {
    await settings({
      PermissionRequest: [{ matcher: 'Touch', hooks: [answer({
        behavior: 'allow', updatedInput: { label: 'safe' },
        updatedPermissions: [{ type: 'addRules', rules: [{ toolName: 'Touch' }], behavior: 'allow', destination: 'session' }],
      })] }],
    })
    const r = await run(box, [{ reply: [touch('x', 'toolu_1')] }, { reply: [touch('z', 'toolu_2')] }, { reply: 'ok' }], 'go', { mods: [perms()] })
    expect(r.requests[1]!.body.messages[2].content[0]).toMatchObject({ content: 'touched safe' })
    // The session rule from updatedPermissions answers the second call: no second PermissionRequest.
    expect(r.requests[2]!.body.messages[4].content[0]).toMatchObject({ content: 'touched z' })
    const asked = await dumped(box, 'PermissionRequest')
    expect(asked).toHaveLength(1)
    expect(keys(asked[0]!).filter((k) => k !== 'permission_suggestions')).toEqual([...TOOL_COMMON, 'tool_input', 'tool_name'].sort())
    expect(asked[0]).toMatchObject({ tool_name: 'Touch', tool_input: { label: 'x' }, permission_mode: 'default' })
    expect(asked[0]!.tool_use_id).toBeUndefined()
  })

  it('PostToolUse sees the input the allow substituted, the one the call ran with', async () => {
    await settings({
      PermissionRequest: [{ hooks: [answer({ behavior: 'allow', updatedInput: { label: 'safe' } })] }],
      PostToolUse: [{ hooks: [cmd(dump(box, 'PostToolUse'))] }],
    })
    await run(box, [{ reply: [touch('x', 'toolu_1')] }, { reply: 'ok' }], 'go', { mods: [perms()] })
    const [post] = await dumped(box, 'PostToolUse')
    expect(post).toMatchObject({ tool_input: { label: 'safe' }, tool_response: 'touched safe' })
  })

  it('the substituted input faces the deny rules again', async () => {
    await settings({ PermissionRequest: [{ hooks: [answer({ behavior: 'allow', updatedInput: { label: 'forbidden' } })] }] }, { permissions: { deny: ['Touch(label:forbidden)'] } })
    const r = await run(box, [{ reply: [touch('x', 'toolu_1')] }, { reply: 'ok' }], 'go', { mods: [perms()] })
    const result = r.requests[1]!.body.messages[2].content[0]
    expect(result.is_error).toBe(true)
    expect(result.content).toContain('label:forbidden')
  })

  it('deny sends the message to the model; interrupt also ends the turn as an interrupt does', async () => {
    await settings({ PermissionRequest: [{ hooks: [answer({ behavior: 'deny', message: 'not on a Friday', interrupt: true })] }] })
    const r = await run(box, [{ reply: [touch('x', 'toolu_1')] }, { reply: 'never' }], 'go', { mods: [perms()] })
    expect(r.requests).toHaveLength(1)
    expect(r.result).toMatchObject({ subtype: 'error_during_execution', is_error: true, terminal_reason: 'aborted_tools' })
    expect(r.result.permission_denials).toHaveLength(1)
    await settings({ PermissionRequest: [{ hooks: [answer({ behavior: 'deny', message: 'not on a Friday' })] }] })
    const plain = await run(box, [{ reply: [touch('x', 'toolu_1')] }, { reply: 'ok' }], 'go', { mods: [perms()] })
    expect(plain.result.result).toBe('ok')
    expect(plain.requests[1]!.body.messages[2].content[0]).toMatchObject({ is_error: true, content: 'not on a Friday' })
  })

  it('exit 2 is not honoured: the ask stands (denied without an approver)', async () => {
    await settings({ PermissionRequest: [{ hooks: [cmd("echo 'no' >&2; exit 2")] }] })
    const r = await run(box, [{ reply: [touch('x', 'toolu_1')] }, { reply: 'ok' }], 'go', { mods: [perms()] })
    expect(r.requests[1]!.body.messages[2].content[0].content).toContain('requires approval')
  })
})

describe('Notification', () => {
  it('permission_prompt fires when an ask goes on to the approver, not when nobody can be asked', async () => {
    await settings({ Notification: [{ matcher: 'permission_prompt', hooks: [cmd(dump(box, 'Notification'))] }] })
    const canUseTool = async () => ({ behavior: 'allow' as const })
    const r = await run(box, [{ reply: [touch('x', 'toolu_1')] }, { reply: 'ok' }], 'go', { mods: [perms()], canUseTool })
    expect(r.requests[1]!.body.messages[2].content[0]).toMatchObject({ content: 'touched x' })
    const [n] = await dumped(box, 'Notification')
    expect(keys(n!)).toEqual(['cwd', 'hook_event_name', 'message', 'notification_type', 'prompt_id', 'session_id', 'title', 'transcript_path'])
    expect(n).toMatchObject({ notification_type: 'permission_prompt', message: expect.stringContaining('Touch') })
    await run(box, [{ reply: [touch('x', 'toolu_1')] }, { reply: 'ok' }], 'go', { mods: [perms()] })
    expect(await dumped(box, 'Notification')).toHaveLength(1)
  })
})

describe('PermissionDenied', () => {
  it('fires when the auto mode refuses a call, with the reason; retry adds a note for the model and the denial stands', async () => {
    const retry = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionDenied', retry: true } })
    await settings({ PermissionDenied: [{ matcher: 'Touch', hooks: [cmd(`${dump(box, 'PermissionDenied')}; printf '%s' '${retry}'`)] }] })
    const verdict = { reply: JSON.stringify({ decision: 'deny', reason: 'nothing asked for a touch' }), model: 'claude-haiku-4-5' }
    const r = await run(box, [{ reply: [touch('x', 'toolu_1')] }, verdict, { reply: 'ok' }], 'go', {
      permissionMode: 'auto', mods: [perms(), withOptions(autoMode, { model: 'claude-haiku-4-5' })],
    })
    const result = r.requests[2]!.body.messages[2].content[0]
    expect(result).toMatchObject({ tool_use_id: 'toolu_1', is_error: true })
    expect(result.content).toContain('nothing asked for a touch')
    expect(result.content).toContain('may retry')
    const fired = await dumped(box, 'PermissionDenied')
    expect(fired).toHaveLength(1)
    expect(keys(fired[0]!)).toEqual([...TOOL_COMMON, 'reason', 'tool_input', 'tool_name', 'tool_use_id'].sort())
    expect(fired[0]).toMatchObject({ tool_name: 'Touch', tool_input: { label: 'x' }, tool_use_id: 'toolu_1', permission_mode: 'auto' })
    expect(fired[0]!.reason).toContain('nothing asked for a touch')
  })

  it('does not fire for a deny rule', async () => {
    await settings({ PermissionDenied: [{ hooks: [cmd(dump(box, 'PermissionDenied'))] }] }, { permissions: { deny: ['Touch'] } })
    const r = await run(box, [{ reply: [touch('x', 'toolu_1')] }, { reply: 'ok' }], 'go', { mods: [perms()] })
    expect(r.result.permission_denials).toHaveLength(1)
    expect(await dumped(box, 'PermissionDenied')).toEqual([])
  })
})

// One auto-mode session of five calls, each asking under the rules (Touch writes): the classifier
// refuses a, approves b, gives no verdict on c; a PreToolUse hook asks about d and e, and the
// classifier approves d (which it may not do for a hook's ask) and refuses e. The hooks and the
// approver write to one log, in the order things happened.
describe('in auto mode, PermissionRequest and permission_prompt hear only of asks that reach the approver', () => {
  let auto: Box
  let log: string
  let outcome: Awaited<ReturnType<typeof run>>
  const reasons: string[] = []
  const classify = (decision: string, reason: string) => ({ reply: JSON.stringify({ decision, reason }), model: 'claude-haiku-4-5' })
  const lines = async () => (await readFile(log, 'utf8').catch(() => '')).split('\n').map((l) => l.trim()).filter(Boolean)

  beforeAll(async () => {
    auto = await makeBox()
    log = join(auto.out, 'events.log')
    const record = await script(auto, 'record.sh', `input=$(cat)
event=$(printf '%s' "$input" | sed -n 's/.*"hook_event_name":"\\([A-Za-z]*\\)".*/\\1/p')
label=$(printf '%s' "$input" | sed -n 's/.*"label":"\\([a-z]*\\)".*/\\1/p')
echo "$event $label" >> ${log}
printf '%s\\n' "$input" >> ${auto.out}/$event.jsonl
`)
    const askHook = await script(auto, 'ask.sh', `case "$(cat)" in *'"label":"d"'*|*'"label":"e"'*)
  printf '%s' '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'a person decides d and e' } })}' ;;
esac
`)
    await writeSettings(auto, {
      PreToolUse: [{ matcher: 'Touch', hooks: [cmd(`sh ${askHook}`)] }],
      PermissionRequest: [{ matcher: 'Touch', hooks: [cmd(`sh ${record}`)] }],
      Notification: [{ matcher: 'permission_prompt', hooks: [cmd(`sh ${record}`)] }],
      PermissionDenied: [{ hooks: [cmd(`sh ${record}`)] }],
    })
    // The approver is asked only after PermissionRequest has answered (it is awaited). The
    // notification runs beside the ask: the approver answers once it was logged, so one raised
    // only after the answer would never be, and the log holds the order they happened in.
    const canUseTool: CanUseTool = async (_tool, input, o) => {
      reasons.push(o.decisionReason ?? '')
      while ((await lines()).filter((l) => l === 'Notification').length < reasons.length) await sleep(10)
      await appendFile(log, `approver ${String(input.label)}\n`)
      return { behavior: 'allow' }
    }
    const touchAgain = (label: string) => ({ reply: [touch(label, `toolu_${label}`)] })
    outcome = await run(auto, [
      touchAgain('a'), classify('deny', 'nothing asked for a'),
      touchAgain('b'), classify('allow', 'b is harmless'),
      touchAgain('c'), { reply: 'no verdict from me' },
      touchAgain('d'), classify('allow', 'd looks harmless'),
      touchAgain('e'), classify('deny', 'nothing asked for e'),
      { reply: 'done' },
    ], 'go', {
      permissionMode: 'auto', canUseTool,
      mods: [withOptions(permissions, { home: auto.home, trustStore: auto.store }), withOptions(autoMode, { model: 'claude-haiku-4-5' })],
    })
  }, 30_000)
  afterAll(async () => { await auto.remove() })

  const results = () => Object.fromEntries(outcome.requests.flatMap((r) => r.body.messages ?? []).flatMap((m: any) => (Array.isArray(m.content) ? m.content : []))
    .filter((b: any) => b.type === 'tool_result').map((b: any) => [b.tool_use_id, b.content]))

  it('the classifier decides a, b and e: no PermissionRequest, no Notification, no approver; PermissionDenied for its refusals', async () => {
    expect(outcome.result).toMatchObject({ result: 'done' })
    expect(outcome.result.permission_denials.map((d: any) => d.tool_use_id)).toEqual(['toolu_a', 'toolu_e'])
    expect(results()).toMatchObject({
      toolu_a: 'The auto mode classifier refused this Touch call: nothing asked for a', toolu_b: 'touched b', toolu_e: 'The auto mode classifier refused this Touch call: nothing asked for e',
    })
    const recorded = await lines()
    for (const label of ['a', 'b', 'e']) expect(recorded.filter((l) => l.endsWith(` ${label}`) && !l.startsWith('PermissionDenied'))).toEqual([])
    expect(recorded.filter((l) => l.startsWith('PermissionDenied'))).toEqual(['PermissionDenied a', 'PermissionDenied e'])
  })

  it('an ask that goes on to the approver (no verdict; a hook\'s ask the classifier may not approve) raises PermissionRequest and the notification first', async () => {
    expect(results()).toMatchObject({ toolu_c: 'touched c', toolu_d: 'touched d' })
    expect(await lines()).toEqual([
      'PermissionDenied a',
      'PermissionRequest c', 'Notification', 'approver c',
      'PermissionRequest d', 'Notification', 'approver d',
      'PermissionDenied e',
    ])
    expect(reasons[0]).toContain("auto mode: the classifier's reply was not a verdict")
    expect(reasons[1]).toContain('auto mode: a hook asked, so the classifier cannot approve it')
    const asked = await dumped(auto, 'PermissionRequest')
    expect(asked.map((i) => [i.tool_input.label, i.permission_mode])).toEqual([['c', 'auto'], ['d', 'auto']])
  })
})
