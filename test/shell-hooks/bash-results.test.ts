import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import bash from '../../mods/bash/index.js'
import { cmd, dump, dumped, json, lastUserTexts, makeBox, notices, run, writeSettings, type Box } from './helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

const bashCall = (command: string) => ({ tool_use: { id: 'toolu_1', name: 'Bash', input: { command } } })
const replaceWith = (value: unknown) => ({ PostToolUse: [{ matcher: 'Bash', hooks: [cmd(json({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: value } }))] }] })
const bashRun = () => run(box, [{ reply: [bashCall('echo original')] }, { reply: 'ok' }], 'go', { mods: [bash], permissionMode: 'bypassPermissions' })

describe('Bash results and settings hooks', () => {
  it('PostToolUseFailure: the error starts with `Exit code N`, then the output', async () => {
    await writeSettings(box, { PostToolUseFailure: [{ hooks: [cmd(dump(box, 'PostToolUseFailure'))] }] })
    await run(box, [{ reply: [bashCall('echo out; echo err >&2; exit 3')] }, { reply: 'ok' }], 'go', { mods: [bash], permissionMode: 'bypassPermissions' })
    const [failure] = await dumped(box, 'PostToolUseFailure')
    expect(failure!.error).toBe('Exit code 3\nout\nerr')
  })

  it('updatedToolOutput in Bash\'s shape reads as a command\'s output, not as JSON', async () => {
    await writeSettings(box, replaceWith({ stdout: 'redacted\n', stderr: 'a warning\n', interrupted: false, isImage: false }))
    const r = await bashRun()
    expect(lastUserTexts(r.requests[1]!.body)[0]).toBe('redacted\na warning')
  })

  it('updatedToolOutput that does not fit Bash\'s output is ignored with a warning', async () => {
    await writeSettings(box, replaceWith('just a string'))
    const r = await bashRun()
    expect(lastUserTexts(r.requests[1]!.body)[0]).toBe('original')
    expect(notices(r.messages).join('\n')).toContain("updatedToolOutput does not fit the Bash tool's output and was ignored")
  })
})
