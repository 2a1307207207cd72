import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeBox, writeSettings, cmd, run, json, notices, type Box } from './helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

const echo = (text: string, id = 'toolu_e') => ({ tool_use: { id, name: 'Echo', input: { text } } })
const settingsFile = () => join(box.project, '.claude', 'settings.json')
const rewrite = (text: string) => json({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { text } } })

describe('hook warnings are shown as notices', () => {
  it('two PreToolUse hooks rewriting the input differently: a notice names updatedInput and both hooks; the last in settings order wins', async () => {
    const first = rewrite('first')
    const second = rewrite('second')
    await writeSettings(box, { PreToolUse: [{ matcher: 'Echo', hooks: [cmd(first), cmd(second)] }] })
    const r = await run(box, [{ reply: [echo('a', 'toolu_1')] }, { reply: [echo('b', 'toolu_2')] }, { reply: 'ok' }])
    expect(r.requests[1]!.body.messages.at(-1).content[0]).toMatchObject({ content: 'second' })
    const conflicts = notices(r.messages).filter((n) => n.includes('updatedInput'))
    // Shown once for the session, though both calls conflicted the same way.
    expect(conflicts).toHaveLength(1)
    expect(conflicts[0]).toContain(`"${first}" from ${settingsFile()}`)
    expect(conflicts[0]).toContain(`"${second}" from ${settingsFile()}`)
  })

  it('lines printed before the JSON (a profile banner) are skipped with a notice', async () => {
    await writeSettings(box, { PreToolUse: [{ matcher: 'Echo', hooks: [cmd(`echo 'Welcome to bash!'; ${rewrite('from json')}`)] }] })
    const r = await run(box, [{ reply: [echo('a')] }, { reply: 'ok' }])
    expect(r.requests[1]!.body.messages.at(-1).content[0]).toMatchObject({ content: 'from json' })
    expect(notices(r.messages).join('\n')).toMatch(/settings hooks warning: .*1 line\(s\) printed before the JSON output were ignored/)
  })

  it('hookSpecificOutput without hookEventName is taken for the event, with a notice', async () => {
    await writeSettings(box, { PreToolUse: [{ matcher: 'Echo', hooks: [cmd(json({ hookSpecificOutput: { updatedInput: { text: 'inferred' } } }))] }] })
    const r = await run(box, [{ reply: [echo('a')] }, { reply: 'ok' }])
    expect(r.requests[1]!.body.messages.at(-1).content[0]).toMatchObject({ content: 'inferred' })
    expect(notices(r.messages).join('\n')).toContain('hookSpecificOutput has no hookEventName; taken as PreToolUse')
  })

  it('stdout that opens with { but is not JSON stays plain text, with a notice naming the command and its settings file', async () => {
    const broken = `printf '%s' '{"additionalContext": oops'`
    await writeSettings(box, { UserPromptSubmit: [{ hooks: [cmd(broken)] }] })
    const r = await run(box, [{ reply: 'ok' }], 'hello')
    expect(JSON.stringify(r.requests[0]!.body.messages)).toContain('{\\"additionalContext\\": oops')
    const n = notices(r.messages).find((t) => t.includes('is not valid JSON'))
    expect(n).toContain(broken)
    expect(n).toContain(settingsFile())
  })

  it('settings that do not do what they say: an unknown event, a bad matcher regex, a handler type the event refuses', async () => {
    await writeSettings(box, {
      PreToolUze: [{ hooks: [cmd('true')] }],
      PreToolUse: [{ matcher: 'Echo(', hooks: [cmd('true')] }],
      SessionStart: [{ hooks: [{ type: 'prompt', prompt: 'is this a good start?' }] }],
    })
    const r = await run(box, [{ reply: [echo('a')] }, { reply: 'ok' }])
    const all = notices(r.messages).join('\n')
    expect(all).toContain('unknown hook event "PreToolUze"')
    expect(all).toContain('matcher "Echo(" is not a valid regular expression')
    expect(all).toContain('SessionStart does not accept "prompt" handlers')
  })
})
