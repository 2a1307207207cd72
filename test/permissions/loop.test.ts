import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ModHost } from '../../core/mod/host.js'
import type { CanUseTool } from '../../core/tools/pipeline.js'
import bashMod from '../../mods/bash/index.js'
import { PLAN_REMINDER, type PermissionsApi } from '../../mods/permissions/index.js'
import { runScript } from '../loop/helpers.js'
import { permissionsWith, sandbox, type Sandbox } from './helpers.js'

let box: Sandbox
beforeAll(async () => { box = await sandbox() })
afterAll(() => box.remove())

/** A host with Bash and the permissions mod (home and trust store inside the sandbox). */
async function hostWith(options: Record<string, unknown> = {}): Promise<{ host: ModHost; logs: string[] }> {
  const logs: string[] = []
  const host = new ModHost({ strict: true, log: (mod, level, text) => logs.push(`${level} ${mod}: ${text}`) })
  await host.add(bashMod, { options: {} })
  await host.add(permissionsWith({ home: box.home, trustStore: join(box.modloopHome, 'trusted.json'), ...options }))
  return { host, logs }
}

const bashTurn = (command: string) => [
  { reply: [{ tool_use: { name: 'Bash', input: { command } } }] },
  { reply: 'done' },
]
const toolResult = (request: { body: any } | undefined) => request?.body.messages.at(-1).content.find((b: any) => b.type === 'tool_result')

describe('the ask flow through the loop', () => {
  it('canUseTool is asked, and its updatedInput is what runs', async () => {
    const { host } = await hostWith()
    const canUseTool = vi.fn<CanUseTool>(async () => ({ behavior: 'allow', updatedInput: { command: 'echo changed' } }))
    const run = await runScript(bashTurn('printf original'), 'go', { host, cwd: box.project, canUseTool })
    await host.close()
    expect(canUseTool).toHaveBeenCalledTimes(1)
    const [tool, input, options] = canUseTool.mock.calls[0]!
    expect({ tool, input }).toEqual({ tool: 'Bash', input: { command: 'printf original' } })
    expect(options.decisionReason).toMatch(/printf original/)
    expect(toolResult(run.requests[1])).toMatchObject({ content: 'changed' })
    expect(run.result.permission_denials).toEqual([])
  })

  it('a canUseTool updatedInput that does not fit the tool\'s schema runs nothing and names the tool', async () => {
    const { host } = await hostWith()
    const marker = join(box.root, 'never-written')
    const canUseTool = vi.fn<CanUseTool>(async () => ({ behavior: 'allow', updatedInput: { command: 42, timeout: 'soon' } }))
    const run = await runScript(bashTurn(`touch ${marker}`), 'go', { host, cwd: box.project, canUseTool })
    await host.close()
    const result = toolResult(run.requests[1])
    expect(result).toMatchObject({ is_error: true })
    expect(result.content).toContain('Bash: the input the canUseTool approver substituted is not valid')
    expect(result.content).toMatch(/command: .*\n- timeout: /s)
    expect(run.result.permission_denials).toEqual([expect.objectContaining({ tool_name: 'Bash' })])
    expect(existsSync(marker)).toBe(false)
  })

  it('a malformed canUseTool answer or a throwing canUseTool runs nothing and is a denial', async () => {
    const answers: [string, CanUseTool, RegExp][] = [
      ['unknown behavior', async () => ({ behavior: 'maybe' }) as never, /invalid permission result/],
      ['deny without message', async () => ({ behavior: 'deny' }) as never, /invalid permission result/],
      ['a throw', async () => { throw new Error('approver exploded') }, /^Tool permission request failed: approver exploded$/],
    ]
    for (const [label, canUseTool, text] of answers) {
      const { host } = await hostWith()
      const marker = join(box.root, `never-${label.replace(/ /g, '-')}`)
      const run = await runScript(bashTurn(`touch ${marker}`), 'go', { host, cwd: box.project, canUseTool })
      await host.close()
      const result = toolResult(run.requests[1])
      expect(result, label).toMatchObject({ is_error: true })
      expect(result.content, label).toMatch(text)
      expect(run.result.permission_denials, label).toEqual([expect.objectContaining({ tool_name: 'Bash' })])
      expect(existsSync(marker), label).toBe(false)
    }
  })

  it('a canUseTool deny reaches the model and the denials', async () => {
    const { host } = await hostWith()
    const canUseTool = vi.fn<CanUseTool>(async () => ({ behavior: 'deny', message: 'not today' }))
    const run = await runScript(bashTurn('printf x'), 'go', { host, cwd: box.project, canUseTool })
    await host.close()
    expect(toolResult(run.requests[1])).toMatchObject({ content: 'not today', is_error: true })
    expect(run.result.permission_denials).toEqual([expect.objectContaining({ tool_name: 'Bash', tool_input: { command: 'printf x' } })])
  })

  it('a canUseTool deny with interrupt ends the turn, interrupted: the calls after it in the batch do not run', async () => {
    const { host } = await hostWith()
    const canUseTool = vi.fn<CanUseTool>(async (_tool, input) => (String(input.command).includes('first')
      ? { behavior: 'deny', message: 'stop right there', interrupt: true }
      : { behavior: 'allow' }))
    const script = [
      { reply: [{ tool_use: { name: 'Bash', input: { command: 'touch first' } } }, { tool_use: { name: 'Bash', input: { command: 'touch second' } } }] },
      { reply: 'never sent' },
    ]
    const run = await runScript(script, 'go', { host, cwd: box.project, canUseTool })
    await host.close()
    expect(run.requests).toHaveLength(1)
    expect(run.result).toMatchObject({ subtype: 'error_during_execution', is_error: true, terminal_reason: 'aborted_tools' })
    expect(run.result.permission_denials).toEqual([expect.objectContaining({ tool_name: 'Bash', tool_input: { command: 'touch first' } })])
    // The rest of the batch is neither asked about nor run, and every call is answered on the stream.
    const results = run.messages.flatMap((m) => (m.type === 'user' ? (m.message.content as any[]).filter((b) => b.type === 'tool_result') : []))
    expect(results.map((r) => [r.content, r.is_error === true])).toEqual([['stop right there', true], ['[Request interrupted by user for tool use]', true]])
    expect(canUseTool).toHaveBeenCalledTimes(1)
    expect(existsSync(join(box.project, 'second'))).toBe(false)
    expect(String(run.error)).toMatch(/error_during_execution/)
  })

  it('an allowed call never reaches canUseTool; a denied one carries reason and rule', async () => {
    const { host } = await hostWith({ deny: ['Bash(rm *)'] })
    const canUseTool = vi.fn<CanUseTool>(async () => ({ behavior: 'allow' }))
    const script = [
      { reply: [{ tool_use: { name: 'Bash', input: { command: 'echo hi' } } }, { tool_use: { name: 'Bash', input: { command: 'rm -f nothing' } } }] },
      { reply: 'done' },
    ]
    const run = await runScript(script, 'go', { host, cwd: box.project, canUseTool })
    const check = host.capabilities.get('permissions')!.check
    await host.close()
    expect(canUseTool).not.toHaveBeenCalled()
    const results = run.requests[1]!.body.messages.at(-1).content
    expect(results[0]).toMatchObject({ content: 'hi' })
    expect(results[1]).toMatchObject({ is_error: true, content: expect.stringContaining('denied by the rule Bash(rm *)') })
    expect(await check('Bash', { command: 'rm -f nothing' })).toMatchObject({ decision: 'deny', rule: 'Bash(rm *)', source: expect.stringContaining('the modloop config') })
  })

  it("a command's relative paths are checked from where the shell's last cd left it", async () => {
    const { host } = await hostWith()
    const canUseTool = vi.fn<CanUseTool>(async () => ({ behavior: 'deny', message: 'no' }))
    const step = (command: string) => ({ reply: [{ tool_use: { name: 'Bash', input: { command } } }] })
    const run = await runScript([step('cd src/deep'), step('cat ../a.ts'), step('cd ../..'), step('pwd'), { reply: 'done' }], 'go', { host, cwd: box.project, canUseTool })
    await host.close()
    expect(canUseTool).not.toHaveBeenCalled()
    expect(run.requests.slice(1).map((r) => toolResult(r).content)).toEqual(['(Bash completed with no output)', 'export {}', '(Bash completed with no output)', box.project])
  })

  it('plan mode: the model is reminded, and a write, which would go to the approver, is refused when there is none', async () => {
    const { host } = await hostWith()
    const run = await runScript(bashTurn('touch made-in-plan'), 'go', { host, cwd: box.project, permissionMode: 'plan' })
    await host.close()
    const first = run.requests[0]!.body.messages[0].content
    expect(first.map((b: any) => b.text).join('\n')).toContain(PLAN_REMINDER)
    expect(toolResult(run.requests[1])).toMatchObject({ is_error: true, content: expect.stringContaining('(plan mode: Bash can change files or systems, so it runs only if the user approves it), and no one can approve it') })
  })

  it('a bare-name deny rule removes the tool from the request; a scoped one does not', async () => {
    const bare = await hostWith()
    const hidden = await runScript([{ reply: 'ok' }], 'go', { host: bare.host, cwd: box.project, disallowedTools: ['Bash', 'Echo(text:secret)'] })
    await bare.host.close()
    const names = hidden.requests[0]!.body.tools.map((t: any) => t.name)
    expect(names).not.toContain('Bash')
    expect(names).toContain('Echo')
    const scoped = await hostWith()
    const shown = await runScript([{ reply: 'ok' }], 'go', { host: scoped.host, cwd: box.project, disallowedTools: ['Bash(rm *)'] })
    await scoped.host.close()
    expect(shown.requests[0]!.body.tools.map((t: any) => t.name)).toContain('Bash')
  })
})

describe('persisting updatedPermissions', () => {
  it('localSettings: merged into .claude/settings.local.json (created), and in force at once and next session', async () => {
    const cwd = join(box.root, 'persist')
    await mkdir(join(cwd, '.claude'), { recursive: true })
    await writeFile(join(cwd, '.claude', 'settings.local.json'), JSON.stringify({ env: { KEEP: '1' }, permissions: { deny: ['Bash(rm *)'] } }))
    const first = await hostWith()
    await runScript([{ reply: 'ok' }], 'go', { host: first.host, cwd, trustWorkspace: true })
    const api = first.host.capabilities.get('permissions')!
    expect((await api.check('Bash', { command: 'printf persisted' })).decision).toBe('ask')
    const written = await api.persistUpdate({ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'printf persisted' }], behavior: 'allow', destination: 'localSettings' })
    expect(written.file).toBe(join(cwd, '.claude', 'settings.local.json'))
    expect(await api.check('Bash', { command: 'printf persisted' })).toMatchObject({ decision: 'allow', rule: 'Bash(printf persisted)' })
    await api.persistUpdate({ type: 'addRules', rules: [{ toolName: 'Read', ruleContent: '//etc/**' }], behavior: 'allow', destination: 'session' })
    expect((await api.check('Read', { file_path: '/etc/hostname' })).decision).toBe('allow')
    await expect(api.persistUpdate({ type: 'addRules', rules: [], behavior: 'maybe', destination: 'session' })).rejects.toThrow(/behavior/)
    await first.host.close()
    expect(JSON.parse(await readFile(join(cwd, '.claude', 'settings.local.json'), 'utf8'))).toEqual({
      env: { KEEP: '1' }, permissions: { deny: ['Bash(rm *)'], allow: ['Bash(printf persisted)'] },
    })
    const second = await hostWith()
    const run = await runScript(bashTurn('printf persisted'), 'go', { host: second.host, cwd, trustWorkspace: true })
    await second.host.close()
    expect(toolResult(run.requests[1])).toMatchObject({ content: 'persisted' })
  })

  it('localSettings is created when missing; session rules stay in memory', async () => {
    const cwd = join(box.root, 'fresh')
    await mkdir(cwd, { recursive: true })
    const { host } = await hostWith()
    await runScript([{ reply: 'ok' }], 'go', { host, cwd })
    const api = host.capabilities.get('permissions')!
    const owner = host.capabilities.get('permissionMode')!
    expect(await api.persistUpdate({ type: 'addRules', rules: [{ toolName: 'WebFetch', ruleContent: 'domain:example.com' }], behavior: 'allow', destination: 'session' })).toEqual({})
    await api.persistUpdate({ type: 'setMode', mode: 'acceptEdits', destination: 'localSettings' })
    await host.close()
    expect(owner.mode()).toBe('acceptEdits')
    expect(JSON.parse(await readFile(join(cwd, '.claude', 'settings.local.json'), 'utf8'))).toEqual({ permissions: { defaultMode: 'acceptEdits' } })
  })
})
