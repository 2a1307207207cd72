import { readFile, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import memoryMod from '../../mods/memory/index.js'
import settingsEnvMod from '../../mods/settings-env/index.js'
import writeMod from '../../mods/write/index.js'
import agentMod from '../../mods/agent/index.js'
import { encodeCwd } from '../../mods/transcripts/store/paths.js'
import { permissionsWith } from '../permissions/helpers.js'
import { runScript } from '../loop/helpers.js'
import { tempDir, texts, withOptions, writeTree } from '../context/fixtures.js'

let root: string
let home: string
let modloopHome: string
let repo: string
let cwd: string
let memoryDir: string

beforeAll(async () => {
  root = await tempDir('auto-memory')
  home = join(root, 'home')
  modloopHome = join(root, 'modloop-home')
  repo = join(root, 'repo')
  cwd = join(repo, 'app')
  // Keyed by the repository's root, so every folder of it shares one memory.
  memoryDir = join(modloopHome, 'projects', encodeCwd(repo), 'memory')
  await writeTree(root, { 'repo/.git/': '', 'repo/app/CLAUDE.md': 'App memory.\n', 'home/.claude/': '' })
})
afterAll(() => rm(root, { recursive: true, force: true }))

const env = (more: Record<string, string> = {}) => ({ MODLOOP_HOME: modloopHome, HOME: home, ...more })
const memory = () => withOptions(memoryMod, { home, managedPath: false })
const system = (body: any) => (body.system as { text: string }[]).map((b) => b.text).join('')
const userSettings = (settings: unknown) => writeTree(home, { '.claude/settings.json': JSON.stringify(settings) })

describe('auto memory', () => {
  it('tells the main agent where its memory is, makes the folder, and puts MEMORY.md after the memory files', async () => {
    await userSettings({})
    await writeTree(memoryDir, { 'MEMORY.md': '- [Build](build.md) — how to build\n', 'build.md': 'TOPIC FILE BODY\n' })
    const run = await runScript([{ reply: 'ok' }], 'hi', { cwd, mods: [memory()], env: env() })
    const prompt = system(run.requests[0]!.body)
    expect(prompt).toContain('# Memory')
    expect(prompt).toContain(`in \`${memoryDir}/\``)
    const first = texts(run.requests[0]!.body, 0).join('\n')
    expect(first.indexOf('App memory.')).toBeLessThan(first.indexOf(`Contents of ${join(memoryDir, 'MEMORY.md')} (your auto memory's index, kept across sessions):\n\n- [Build](build.md) — how to build`))
    expect(first).toContain('- [Build](build.md)')
    // Topic files are the model's to Read when it needs them.
    expect(first).not.toContain('TOPIC FILE BODY')
    await rm(memoryDir, { recursive: true })
    await runScript([{ reply: 'ok' }], 'hi', { cwd, mods: [memory()], env: env() })
    expect((await stat(memoryDir)).isDirectory()).toBe(true)
  })

  it('reads the first 200 lines of MEMORY.md within 25,000 bytes, and says what it left out', async () => {
    await userSettings({})
    await writeTree(memoryDir, { 'MEMORY.md': Array.from({ length: 250 }, (_, i) => `- line ${i + 1}`).join('\n') + '\n' })
    let first = texts((await runScript([{ reply: 'ok' }], 'hi', { cwd, mods: [memory()], env: env() })).requests[0]!.body, 0).join('\n')
    expect(first).toContain('- line 200\n\n(modloop: MEMORY.md was cut: it has 250 lines, past the 200 read at start. Lines 201 to 250 ("- line 201") were left out;')
    expect(first).not.toContain('- line 201\n')
    await writeTree(memoryDir, { 'MEMORY.md': Array.from({ length: 10 }, (_, i) => `L${i + 1} ${'x'.repeat(4000)}`).join('\n') + '\n' })
    first = texts((await runScript([{ reply: 'ok' }], 'hi', { cwd, mods: [memory()], env: env() })).requests[0]!.body, 0).join('\n')
    expect(first).toContain('L6 x')
    expect(first).toContain('(modloop: MEMORY.md was cut: it is 40,041 bytes, past the 25,000 read at start. Lines 7 to 10 ("L7 xxx')
    expect(first).not.toContain('\nL7 x')
  })

  it('is off with autoMemoryEnabled: false, or CLAUDE_CODE_DISABLE_AUTO_MEMORY from the environment or the settings env; 0 turns it back on', async () => {
    await writeTree(memoryDir, { 'MEMORY.md': 'REMEMBERED\n' })
    const on = (run: Awaited<ReturnType<typeof runScript>>) => {
      const body = run.requests[0]!.body
      const section = system(body).includes('# Memory')
      expect(texts(body, 0).join('\n').includes('REMEMBERED')).toBe(section)
      return section
    }
    await userSettings({ autoMemoryEnabled: false })
    expect(on(await runScript([{ reply: 'ok' }], 'hi', { cwd, mods: [memory()], env: env() }))).toBe(false)
    expect(on(await runScript([{ reply: 'ok' }], 'hi', { cwd, mods: [memory()], env: env({ CLAUDE_CODE_DISABLE_AUTO_MEMORY: '0' }) }))).toBe(true)
    await userSettings({})
    expect(on(await runScript([{ reply: 'ok' }], 'hi', { cwd, mods: [memory()], env: env({ CLAUDE_CODE_DISABLE_AUTO_MEMORY: 'yes' }) }))).toBe(false)
    await userSettings({ env: { CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' } })
    const settingsEnv = withOptions(settingsEnvMod, { home, managedDir: false })
    expect(on(await runScript([{ reply: 'ok' }], 'hi', { cwd, mods: [settingsEnv, memory()], env: env() }))).toBe(false)
  })

  it('lets Write create files in the memory folder unasked, as Claude Code does; elsewhere under the projects folder it still asks', async () => {
    await userSettings({})
    const elsewhere = join(modloopHome, 'projects', encodeCwd(repo), 'notes.md')
    const run = await runScript([
      { reply: [{ tool_use: { name: 'Write', input: { file_path: join(memoryDir, 'testing.md'), content: 'Run the tests with npm test.\n' } } }] },
      { reply: [{ tool_use: { name: 'Write', input: { file_path: elsewhere, content: 'no\n' } } }] },
      { reply: 'done' },
    ], 'remember how to test', { cwd, mods: [writeMod, permissionsWith({ home, managedDir: false }), memory()], env: env() })
    expect(run.result.result).toBe('done')
    expect(await readFile(join(memoryDir, 'testing.md'), 'utf8')).toBe('Run the tests with npm test.\n')
    const results = run.requests[2]!.body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])).filter((b: any) => b.type === 'tool_result')
    expect(results.map((r: any) => r.is_error === true)).toEqual([false, true])
    await expect(stat(elsewhere)).rejects.toThrow()
  })

  it('a deny rule still stops writes to the memory folder', async () => {
    await userSettings({ permissions: { deny: [`Edit(/${memoryDir}/**)`] } })
    const run = await runScript([
      { reply: [{ tool_use: { name: 'Write', input: { file_path: join(memoryDir, 'denied.md'), content: 'no\n' } } }] },
      { reply: 'done' },
    ], 'hi', { cwd, mods: [writeMod, permissionsWith({ home, managedDir: false }), memory()], env: env() })
    const result = run.requests[1]!.body.messages[2].content[0]
    expect(result).toMatchObject({ type: 'tool_result', is_error: true })
    expect(JSON.stringify(result.content)).toContain('denied')
    await expect(stat(join(memoryDir, 'denied.md'))).rejects.toThrow()
  })

  it('takes the folder from the settings\' autoMemoryDirectory (~/ is the home); a relative one is ignored', async () => {
    await writeTree(home, { 'mine/MEMORY.md': 'FROM MY FOLDER\n' })
    await userSettings({ autoMemoryDirectory: '~/mine' })
    let run = await runScript([{ reply: 'ok' }], 'hi', { cwd, mods: [memory()], env: env() })
    expect(system(run.requests[0]!.body)).toContain(`in \`${join(home, 'mine')}/\``)
    expect(texts(run.requests[0]!.body, 0).join('\n')).toContain('FROM MY FOLDER')
    await userSettings({ autoMemoryDirectory: 'relative/dir' })
    run = await runScript([{ reply: 'ok' }], 'hi', { cwd, mods: [memory()], env: env() })
    expect(system(run.requests[0]!.body)).toContain(`in \`${memoryDir}/\``)
  })

  it('a linked worktree shares its main checkout\'s memory', async () => {
    await userSettings({})
    await writeTree(root, { 'repo/.git/worktrees/wt/HEAD': 'ref: refs/heads/wt\n', 'wt/.git': `gitdir: ${join(repo, '.git/worktrees/wt')}\n` })
    const run = await runScript([{ reply: 'ok' }], 'hi', { cwd: join(root, 'wt'), mods: [memory()], env: env() })
    expect(system(run.requests[0]!.body)).toContain(`in \`${memoryDir}/\``)
  })

  it('a subagent gets neither the memory section nor MEMORY.md (spec loop-and-sdk §7.3)', async () => {
    await userSettings({})
    await writeTree(memoryDir, { 'MEMORY.md': 'REMEMBERED\n' })
    const run = await runScript([
      { reply: [{ tool_use: { name: 'Agent', input: { description: 'look', prompt: 'Look.' } } }] },
      { reply: 'seen' },
      { reply: 'done' },
    ], 'hi', { cwd, mods: [agentMod, memory()], env: env() })
    const sub = run.requests[1]!.body
    expect(system(sub)).not.toContain('# Memory')
    expect(texts(sub, 0).join('\n')).toContain('App memory.')
    expect(texts(sub, 0).join('\n')).not.toContain('REMEMBERED')
  })
})
