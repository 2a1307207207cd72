import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { ModHost } from '../../core/mod/host.js'
import agentMod from '../../mods/agent/index.js'
import editMod from '../../mods/edit/index.js'
import readMod from '../../mods/read/index.js'
import writeMod from '../../mods/write/index.js'
import { mustReadFirst } from '../../mods/_shared/unread-change.js'
import { runScript } from '../loop/helpers.js'
import { permissionsWith, sandbox, type Sandbox } from '../permissions/helpers.js'

const NOTEBOOK = JSON.stringify({ cells: [{ cell_type: 'code', id: 'c1', metadata: {}, source: ['x=1'], outputs: [], execution_count: null }], metadata: {}, nbformat: 4, nbformat_minor: 5 })

let box: Sandbox
const inProject = (name: string) => join(box.project, name)
beforeEach(async () => {
  box ??= await sandbox()
  for (const name of ['a.txt', 'b.txt']) await writeFile(inProject(name), 'old\n')
  await writeFile(join(box.outside, 'o.txt'), 'old\n')
  await writeFile(inProject('n.ipynb'), NOTEBOOK)
})
afterAll(() => box?.remove())

const call = (name: string, input: Record<string, unknown>) => ({ reply: [{ tool_use: { name, input } }] })
const results = (run: { requests: { body: any }[] }) =>
  run.requests.slice(1).map((r) => r.body.messages.at(-1).content.find((b: any) => b.type === 'tool_result'))

/** Runs the calls with the file tools (and the permissions mod unless told) on `model`. */
async function run(model: string, calls: ReturnType<typeof call>[], o: { permissions?: Record<string, unknown> | false; mode?: string } = {}) {
  const host = new ModHost({ strict: true })
  for (const mod of [readMod, writeMod, editMod, agentMod]) await host.add(mod, { options: {} })
  if (o.permissions !== false) await host.add(permissionsWith({ home: box.home, trustStore: join(box.modloopHome, 'trusted.json'), ...o.permissions }))
  const mode = o.permissions === false ? {} : { permissionMode: o.mode ?? 'acceptEdits' }
  const done = await runScript([...calls, { reply: 'done' }], 'go', { host, cwd: box.project, model, trustWorkspace: true, ...mode })
  await host.close()
  return results(done)
}

const notRead = { is_error: true, content: expect.stringContaining('has not been read in this session') }

describe('Write and Edit of a file the session has not read', () => {
  it('a newer model changes it when a Read would not ask, and may go on changing it', async () => {
    const [write, edit, again, rewrite] = await run('claude-opus-4-7', [
      call('Write', { file_path: inProject('a.txt'), content: 'new\n' }),
      call('Edit', { file_path: inProject('b.txt'), old_string: 'old', new_string: 'mid' }),
      call('Edit', { file_path: inProject('b.txt'), old_string: 'mid', new_string: 'late' }),
      // An Edit is no read: the file is not taken for one read in part, which Write would refuse.
      call('Write', { file_path: inProject('b.txt'), content: 'last\n' }),
    ])
    for (const r of [write, edit, again, rewrite]) expect(r.is_error).toBeFalsy()
    expect(await readFile(inProject('a.txt'), 'utf8')).toBe('new\n')
    expect(await readFile(inProject('b.txt'), 'utf8')).toBe('last\n')
  })

  it('an older model must read it first', async () => {
    for (const model of ['claude-sonnet-4-5', 'claude-opus-4-6', 'claude-haiku-4-5-20251001']) {
      const [write, edit] = await run(model, [
        call('Write', { file_path: inProject('a.txt'), content: 'new\n' }),
        call('Edit', { file_path: inProject('b.txt'), old_string: 'old', new_string: 'new' }),
      ])
      expect(write, model).toMatchObject(notRead)
      expect(edit, model).toMatchObject(notRead)
    }
    expect(await readFile(inProject('a.txt'), 'utf8')).toBe('old\n')
  })

  it('a file a Read would ask about (outside the working directories) must be read first, though the change is allowed', async () => {
    const outside = join(box.outside, 'o.txt')
    const [edit, write] = await run('claude-opus-4-7', [
      call('Edit', { file_path: outside, old_string: 'old', new_string: 'new' }),
      call('Write', { file_path: outside, content: 'new\n' }),
    ], { permissions: { allow: ['Edit', 'Write'] } })
    expect(edit).toMatchObject(notRead)
    expect(write).toMatchObject(notRead)
    expect(await readFile(outside, 'utf8')).toBe('old\n')
  })

  it('in bypassPermissions a Read asks nothing, so a file outside them may be changed unread', async () => {
    const [edit] = await run('claude-opus-4-7', [call('Edit', { file_path: join(box.outside, 'o.txt'), old_string: 'old', new_string: 'new' })], { mode: 'bypassPermissions' })
    expect(edit.is_error).toBeFalsy()
    expect(await readFile(join(box.outside, 'o.txt'), 'utf8')).toBe('new\n')
  })

  it('a notebook must always be read first', async () => {
    const [cell, write] = await run('claude-opus-4-7', [
      call('NotebookEdit', { notebook_path: inProject('n.ipynb'), cell_id: 'c1', new_source: 'x=2' }),
      call('Write', { file_path: inProject('n.ipynb'), content: '{}' }),
    ], { mode: 'bypassPermissions' })
    expect(cell).toMatchObject(notRead)
    expect(write).toMatchObject(notRead)
    expect(await readFile(inProject('n.ipynb'), 'utf8')).toBe(NOTEBOOK)
  })

  it("a subagent's own model decides, not the main one's", async () => {
    const agentWrites = (model: string, file: string) => [
      call('Agent', { description: 'write', prompt: 'write it', subagent_type: 'general-purpose', model, run_in_background: false }),
      call('Write', { file_path: inProject(file), content: 'new\n' }),
      { reply: 'written' },
    ]
    const older = await run('claude-opus-4-7', agentWrites('claude-sonnet-4-5', 'a.txt') as never)
    expect(older[1]).toMatchObject(notRead)
    expect(await readFile(inProject('a.txt'), 'utf8')).toBe('old\n')
    const newer = await run('claude-sonnet-4-5', agentWrites('claude-opus-4-7', 'b.txt') as never)
    expect(newer[1].is_error).toBeFalsy()
    expect(await readFile(inProject('b.txt'), 'utf8')).toBe('new\n')
  })

  it('without the permissions mod only the model counts', async () => {
    const [write] = await run('claude-sonnet-5', [call('Write', { file_path: inProject('a.txt'), content: 'new\n' })], { permissions: false })
    expect(write.is_error).toBeFalsy()
  })
})

describe('which models must read first', () => {
  it('Claude 3.5 and 3.7, Sonnet 4 and 4.5, Opus 4 to 4.6, Haiku 4.5, however the id is spelt', () => {
    const first = ['claude-3-5-sonnet-20241022', 'claude-3-5-haiku', 'claude-3-7-sonnet-latest', 'claude-sonnet-4-20250514', 'claude-sonnet-4@20250514',
      'claude-sonnet-4-5', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'claude-opus-4', 'claude-opus-4-1', 'claude-opus-4-5-20251101',
      'claude-opus-4-6[1m]', 'CLAUDE-OPUS-4-6', 'claude-haiku-4-5-20251001']
    const may = ['claude-sonnet-4-6', 'claude-opus-4-7', 'claude-opus-4-8', 'claude-opus-5', 'claude-sonnet-5', 'claude-haiku-5', 'claude-fable-5',
      'us.anthropic.claude-sonnet-4-6', 'claude-3-opus-20240229', 'some-gateway-model']
    expect(first.filter((m) => !mustReadFirst(m))).toEqual([])
    expect(may.filter(mustReadFirst)).toEqual([])
  })
})
