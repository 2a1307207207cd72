import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { query } from '../../entry.js'
import { ModHost } from '../../core/mod/host.js'
import type { CanUseTool, PermissionUpdate } from '../../core/tools/pipeline.js'
import bashMod from '../../mods/bash/index.js'
import readMod from '../../mods/read/index.js'
import writeMod from '../../mods/write/index.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { runScript } from '../loop/helpers.js'
import { permissionsWith, sandbox, type Sandbox } from './helpers.js'

let box: Sandbox
beforeAll(async () => { box = await sandbox() })
afterAll(() => box.remove())

/** Bash, Read and the permissions mod; home and the trust store stay inside the sandbox. */
async function hostWith(): Promise<{ host: ModHost; logs: string[] }> {
  const logs: string[] = []
  const host = new ModHost({ strict: true, log: (mod, level, text) => logs.push(`${level} ${mod}: ${text}`) })
  await host.add(bashMod, { options: {} })
  await host.add(readMod, { options: {} })
  await host.add(permissionsWith({ home: box.home, trustStore: join(box.modloopHome, 'trusted.json') }))
  return { host, logs }
}

const call = (name: string, input: Record<string, unknown>) => ({ tool_use: { name, input } })
/** One turn: the model calls each tool in its own response, then answers. */
const turn = (...calls: ReturnType<typeof call>[]) => [...calls.map((c) => ({ reply: [c] })), { reply: 'done' }]
const resultOf = (request: { body: any } | undefined) => request?.body.messages.at(-1).content.find((b: any) => b.type === 'tool_result')
const allowWith = (...updates: PermissionUpdate[]) => vi.fn<CanUseTool>(async () => ({ behavior: 'allow', updatedPermissions: updates }))
const bashRule = (destination: PermissionUpdate['destination']): PermissionUpdate =>
  ({ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'printf *' }], behavior: 'allow', destination })

async function project(name: string): Promise<string> {
  const cwd = join(box.root, name)
  await mkdir(cwd, { recursive: true })
  return cwd
}

describe('updatedPermissions from canUseTool, through the loop', () => {
  it('localSettings: the rule is written to .claude/settings.local.json and holds for the rest of the session', async () => {
    const cwd = await project('always-local')
    await mkdir(join(cwd, '.claude'))
    await writeFile(join(cwd, '.claude', 'settings.local.json'), JSON.stringify({ env: { KEEP: '1' } }))
    const { host, logs } = await hostWith()
    const canUseTool = allowWith(bashRule('localSettings'))
    const run = await runScript(turn(call('Bash', { command: 'printf one' }), call('Bash', { command: 'printf two' })), 'go', { host, cwd, canUseTool })
    await host.close()
    expect(canUseTool).toHaveBeenCalledTimes(1)
    expect(resultOf(run.requests[1])).toMatchObject({ content: 'one' })
    expect(resultOf(run.requests[2])).toMatchObject({ content: 'two' })
    expect(JSON.parse(await readFile(join(cwd, '.claude', 'settings.local.json'), 'utf8'))).toEqual({ env: { KEEP: '1' }, permissions: { allow: ['Bash(printf *)'] } })
    expect(logs).toContainEqual(expect.stringMatching(/settings\.local\.json: saved the permission update given with the approval of Bash/))
  })

  it('projectSettings and userSettings name their files; session keeps the rule in memory only', async () => {
    const cwd = await project('always-files')
    for (const destination of ['session', 'projectSettings', 'userSettings'] as const) {
      const { host } = await hostWith()
      const canUseTool = allowWith(bashRule(destination))
      await runScript(turn(call('Bash', { command: `printf ${destination}` }), call('Bash', { command: 'printf again' })), 'go', { host, cwd, canUseTool })
      await host.close()
      expect(canUseTool).toHaveBeenCalledTimes(1)
    }
    expect(JSON.parse(await readFile(join(cwd, '.claude', 'settings.json'), 'utf8'))).toEqual({ permissions: { allow: ['Bash(printf *)'] } })
    expect(JSON.parse(await readFile(join(box.home, '.claude', 'settings.json'), 'utf8'))).toEqual({ permissions: { allow: ['Bash(printf *)'] } })
    await expect(readFile(join(cwd, '.claude', 'settings.local.json'), 'utf8')).rejects.toThrow(/ENOENT/)
  })

  it('addDirectories: the granted folder counts as a working directory at once, for the permission check and for Read', async () => {
    const cwd = await project('always-dir')
    const file = join(box.outside, 'secret.txt')
    const { host } = await hostWith()
    const canUseTool = allowWith({ type: 'addDirectories', directories: [box.outside], destination: 'session' })
    const run = await runScript(turn(call('Read', { file_path: file }), call('Read', { file_path: file })), 'go', { host, cwd, canUseTool })
    await host.close()
    expect(canUseTool).toHaveBeenCalledTimes(1)
    expect(resultOf(run.requests[1]).content).toMatch(/1\s+secret/)
    expect(resultOf(run.requests[2]).content).toMatch(/1\s+secret/)
  })

  it('setMode applies to the session; a malformed update is reported and the approved call still runs', async () => {
    const cwd = await project('always-mode')
    const { host, logs } = await hostWith()
    const canUseTool = allowWith({ type: 'setMode', mode: 'bypassPermissions', destination: 'session' }, { type: 'addRules', rules: [], behavior: 'sometimes', destination: 'session' } as never)
    const run = await runScript(turn(call('Bash', { command: 'printf first' }), call('Bash', { command: 'touch made-in-bypass' })), 'go', { host, cwd, canUseTool })
    await host.close()
    expect(canUseTool).toHaveBeenCalledTimes(1)
    expect(resultOf(run.requests[1])).toMatchObject({ content: 'first' })
    expect(resultOf(run.requests[2]).is_error).toBeFalsy()
    expect(logs).toContainEqual(expect.stringMatching(/approval of Bash was not applied: permissions: a permission update is malformed at behavior/))
  })

  it('canUseTool is offered suggestions to answer with: the unapproved command parts, the folder of a file outside', async () => {
    const cwd = await project('suggested')
    const file = join(box.outside, 'secret.txt')
    const { host } = await hostWith()
    const canUseTool = vi.fn<CanUseTool>(async (_tool, _input, options) => ({ behavior: 'allow', updatedPermissions: options.suggestions }))
    const run = await runScript(turn(
      call('Bash', { command: 'mkdir -p made-a; ls; touch made-b' }),
      call('Bash', { command: 'touch made-b && mkdir -p made-a' }),
      call('Read', { file_path: file }),
    ), 'go', { host, cwd, canUseTool })
    await host.close()
    expect(canUseTool).toHaveBeenCalledTimes(2)
    expect(canUseTool.mock.calls[0]![2].suggestions).toEqual([{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'mkdir -p made-a' }, { toolName: 'Bash', ruleContent: 'touch made-b' }], behavior: 'allow', destination: 'localSettings' }])
    expect(canUseTool.mock.calls[1]![2]).toMatchObject({ blockedPath: file, suggestions: [{ type: 'addDirectories', directories: [box.outside], destination: 'session' }] })
    expect(resultOf(run.requests[2]).is_error).toBeFalsy()
    expect(resultOf(run.requests[3]).content).toMatch(/1\s+secret/)
    expect(JSON.parse(await readFile(join(cwd, '.claude', 'settings.local.json'), 'utf8'))).toEqual({ permissions: { allow: ['Bash(mkdir -p made-a)', 'Bash(touch made-b)'] } })
  })

  it('an edit outside the working directories suggests its folder beside accepting edits: answered with them, the next edit there is not asked about', async () => {
    const cwd = await project('edit-outside')
    const folder = join(box.outside, 'notes')
    await mkdir(folder, { recursive: true })
    const { host } = await hostWith()
    await host.add(writeMod, { options: {} })
    const canUseTool = vi.fn<CanUseTool>(async (_tool, _input, options) => ({ behavior: 'allow', updatedPermissions: options.suggestions }))
    const run = await runScript(turn(
      call('Write', { file_path: join(folder, 'a.md'), content: 'a\n' }),
      call('Write', { file_path: join(folder, 'b.md'), content: 'b\n' }),
    ), 'go', { host, cwd, canUseTool })
    await host.close()
    expect(canUseTool).toHaveBeenCalledTimes(1)
    expect(canUseTool.mock.calls[0]![2].suggestions).toEqual([
      { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
      { type: 'addDirectories', directories: [folder], destination: 'session' },
    ])
    expect(run.result).toMatchObject({ subtype: 'success' })
    expect(await readFile(join(folder, 'b.md'), 'utf8')).toBe('b\n')
  })

  it("an approval's setMode outlasts an earlier Query.setPermissionMode", async () => {
    const cwd = await project('after-switch')
    const { host } = await hostWith()
    const server = await startFakeAnthropic({ script: turn(call('Bash', { command: 'touch made-a' }), call('Bash', { command: 'touch made-b' })) })
    const canUseTool = allowWith({ type: 'setMode', mode: 'acceptEdits', destination: 'session' })
    try {
      const q = query({ prompt: 'go', options: { host, cwd, canUseTool, env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test' } } })
      let result: any
      for await (const m of q) {
        if (m.type === 'system' && m.subtype === 'init') await q.setPermissionMode('default')
        if (m.type === 'result') result = m
      }
      expect(result).toMatchObject({ subtype: 'success', permission_denials: [] })
      expect(canUseTool).toHaveBeenCalledTimes(1)
    } finally {
      await host.close()
      await server.close()
    }
  })
})
