import { execFileSync } from 'node:child_process'
import { mkdir, readFile, rm, truncate, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ModHost } from '../../core/mod/host.js'
import editMod from '../../mods/edit/index.js'
import globMod from '../../mods/glob/index.js'
import grepMod from '../../mods/grep/index.js'
import readMod from '../../mods/read/index.js'
import writeMod from '../../mods/write/index.js'
import { runCli } from '../helpers/cli.js'
import { runScript } from '../loop/helpers.js'
import { loadPolicy } from '../../mods/permissions/policy.js'
import { permissionsOptions } from '../../mods/permissions/settings-load.js'
import { permissionsWith, sandbox, type Sandbox } from './helpers.js'

let box: Sandbox
let extra: string
let elsewhere: string
beforeAll(async () => {
  box = await sandbox()
  extra = join(box.root, 'extra')
  elsewhere = join(box.root, 'elsewhere')
  await mkdir(extra)
  await mkdir(elsewhere)
  await writeFile(join(extra, 'notes.txt'), 'alpha\nbeta\n')
  await writeFile(join(elsewhere, 'private.txt'), 'keep out\n')
})
afterAll(() => box.remove())

/** The file tools, and (unless told) the permissions mod. */
async function hostWith(permissions: Record<string, unknown> | false): Promise<ModHost> {
  const host = new ModHost({ strict: true })
  for (const mod of [readMod, writeMod, editMod, globMod, grepMod]) await host.add(mod, { options: {} })
  if (permissions) await host.add(permissionsWith({ home: box.home, trustStore: join(box.modloopHome, 'trusted.json'), ...permissions }))
  return host
}

const call = (name: string, input: Record<string, unknown>) => ({ reply: [{ tool_use: { name, input } }] })
const results = (run: { requests: { body: any }[] }) =>
  run.requests.slice(1).map((r) => r.body.messages.at(-1).content.find((b: any) => b.type === 'tool_result'))

describe('--add-dir / additionalDirectories reach the file tools', () => {
  it('Read, Write, Edit, Glob and Grep work in an added directory; a path outside every directory is refused by the tool', async () => {
    const host = await hostWith(false)
    const notes = join(extra, 'notes.txt')
    const run = await runScript([
      call('Read', { file_path: notes }),
      call('Edit', { file_path: notes, old_string: 'beta', new_string: 'gamma' }),
      call('Glob', { pattern: '*.txt', path: extra }),
      call('Grep', { pattern: 'gamma', path: extra }),
      call('Read', { file_path: join(elsewhere, 'private.txt') }),
      call('Write', { file_path: join(extra, 'new.txt'), content: 'written\n' }),
      call('Write', { file_path: join(elsewhere, 'new.txt'), content: 'never\n' }),
      { reply: 'done' },
    ], 'go', { host, cwd: box.project, additionalDirectories: [extra] })
    await host.close()
    const [read, edit, glob, grep, refused, written, notWritten] = results(run)
    expect(read.content).toMatch(/1\s+alpha/)
    expect(edit.is_error).toBeFalsy()
    expect(await readFile(notes, 'utf8')).toBe('alpha\ngamma\n')
    expect(glob.content).toContain(notes)
    expect(grep.content).toContain(notes)
    expect(refused).toMatchObject({ is_error: true, content: expect.stringContaining('is outside the directories this session may use') })
    expect(refused.content).toContain(extra)
    expect(written.is_error).toBeFalsy()
    expect(await readFile(join(extra, 'new.txt'), 'utf8')).toBe('written\n')
    expect(notWritten).toMatchObject({ is_error: true, content: expect.stringContaining('is outside the directories this session may use') })
  })

  it('modloop -p --add-dir', async () => {
    const cwd = join(box.root, 'cli')
    await mkdir(cwd)
    await writeFile(join(cwd, 'modloop.config.json'), JSON.stringify({ mods: ['read'] }))
    const script = [call('Read', { file_path: join(extra, 'notes.txt') }), { reply: 'done' }]
    const without = await runCli(['-p', 'go'], { script, cwd })
    expect(results(without as never)[0]).toMatchObject({ is_error: true })
    const added = await runCli(['-p', 'go', '--add-dir', extra], { script, cwd })
    expect(added.code).toBe(0)
    expect(results(added as never)[0].is_error).toBeFalsy()
  })

  it('with the permissions mod: reads in the added directory need no approval, edits there follow the mode, outside is denied', async () => {
    const host = await hostWith({})
    const notes = join(extra, 'notes.txt')
    await writeFile(notes, 'one\ntwo\n')
    const run = await runScript([
      call('Read', { file_path: notes }),
      call('Edit', { file_path: notes, old_string: 'two', new_string: 'three' }),
      call('Read', { file_path: join(elsewhere, 'private.txt') }),
      { reply: 'done' },
    ], 'go', { host, cwd: box.project, additionalDirectories: [extra], permissionMode: 'acceptEdits' })
    await host.close()
    const [read, edit, outside] = results(run)
    expect(read.content).toMatch(/1\s+one/)
    expect(edit.is_error).toBeFalsy()
    expect(await readFile(notes, 'utf8')).toBe('one\nthree\n')
    expect(outside).toMatchObject({ is_error: true, content: expect.stringMatching(/requires approval.*outside the working directories/) })
    expect(run.result.permission_denials.map((d) => d.tool_name)).toEqual(['Read'])
  })

  it("the directories of the permissions mod's settings count too (here: its options, as the config hands them over)", async () => {
    const host = await hostWith({ additionalDirectories: [extra] })
    const run = await runScript([call('Read', { file_path: join(extra, 'notes.txt') }), { reply: 'done' }], 'go', { host, cwd: box.project, trustWorkspace: true })
    await host.close()
    expect(results(run)[0].is_error).toBeFalsy()
  })
})

describe('Read outside the working directories, by permission mode', () => {
  it('bypassPermissions reads it (still refusing a FIFO, a device and an oversize file); default and acceptEdits refuse it', async () => {
    const fifo = join(elsewhere, 'pipe')
    execFileSync('mkfifo', [fifo])
    // Sparse: past Read's 32 MiB limit without writing the bytes.
    const huge = join(elsewhere, 'huge.log')
    await writeFile(huge, '')
    await truncate(huge, 33 * 1024 * 1024)
    const outcomes: Record<string, unknown[]> = {}
    for (const mode of ['bypassPermissions', 'default', 'acceptEdits']) {
      const host = await hostWith({})
      const reads = [join(elsewhere, 'private.txt'), fifo, '/dev/zero', huge].map((file_path) => call('Read', { file_path }))
      const run = await runScript([...reads, { reply: 'done' }], 'go', { host, cwd: box.project, permissionMode: mode })
      await host.close()
      outcomes[mode] = results(run)
    }
    const [read, pipe, device, oversize] = outcomes.bypassPermissions as any[]
    expect(read.is_error).toBeFalsy()
    expect(read.content).toMatch(/1\s+keep out/)
    expect(pipe).toMatchObject({ is_error: true, content: expect.stringContaining('not a regular file') })
    expect(device).toMatchObject({ is_error: true, content: expect.stringContaining('not a regular file') })
    expect(oversize).toMatchObject({ is_error: true, content: expect.stringContaining('more than Read takes') })
    for (const mode of ['default', 'acceptEdits']) {
      const [refused] = outcomes[mode] as any[]
      expect(refused.is_error, mode).toBe(true)
      expect(JSON.stringify(refused.content)).not.toContain('keep out')
    }
  })
})

describe('a file call outside the working directories that the permissions allow', () => {
  it('runs: an allow rule, or the approver saying yes, is not overruled by the tool', async () => {
    const secret = join(elsewhere, 'private.txt')
    const ruled = await hostWith({ allow: [`Read(/${elsewhere}/**)`] })
    const byRule = await runScript([call('Read', { file_path: secret }), call('Grep', { pattern: 'keep', path: elsewhere }), { reply: 'done' }], 'go', { host: ruled, cwd: box.project, trustWorkspace: true })
    await ruled.close()
    const [read, grep] = results(byRule)
    expect(read.content).toMatch(/1\s+keep out/)
    expect(grep.content).toContain(secret)

    const asked: string[] = []
    const approved = await hostWith({})
    const written = join(elsewhere, 'approved.txt')
    const byApproval = await runScript([call('Read', { file_path: secret }), call('Write', { file_path: written, content: 'yes\n' }), { reply: 'done' }], 'go', {
      host: approved, cwd: box.project,
      canUseTool: async (tool, input) => { asked.push(tool); return { behavior: 'allow', updatedInput: input } },
    })
    await approved.close()
    expect(asked).toEqual(['Read', 'Write'])
    expect(results(byApproval).map((r) => r.is_error ?? false)).toEqual([false, false])
    expect(await readFile(written, 'utf8')).toBe('yes\n')
  })
})

describe('additionalDirectories in ~/.claude/settings.json', () => {
  it('takes ~/ as the home, and a relative entry from the cwd, not from the home', async () => {
    await mkdir(join(box.home, '.claude'), { recursive: true })
    await writeFile(join(box.home, '.claude', 'settings.json'), JSON.stringify({ permissions: { additionalDirectories: ['~/notes', '../beside'] } }))
    const cwd = join(box.project, 'src')
    const options = permissionsOptions.parse({ home: box.home, managedDir: false, trustStore: join(box.modloopHome, 'trusted.json') })
    const policy = await loadPolicy({ cwd, options, flags: {}, env: {} })
    await rm(join(box.home, '.claude'), { recursive: true })
    expect(policy.roots.lexical).toEqual([cwd, join(box.home, 'notes'), join(box.project, 'beside')])
  })
})
