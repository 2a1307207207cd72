import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import commandsMod from '../../mods/commands/index.js'
import outputStylesMod from '../../mods/output-styles/index.js'
import type { ModSpec } from '../../runtime/options.js'
import { runScript } from '../loop/helpers.js'
import { conversation } from '../sdk/conversation.js'
import { tempDir, writeTree } from './fixtures.js'

let root = ''
let cwd = ''
let config = ''
const dirs: string[] = []

// Each test has its own files: the command writes them.
beforeEach(async () => {
  root = await tempDir('config-command')
  dirs.push(root)
  cwd = join(root, 'project')
  config = join(root, 'claude')
  await writeTree(root, {
    'project/.claude/output-styles/terse.md': '---\nname: Terse\ndescription: One line\n---\nOne line only.\n',
    'claude/.claude.json': `${JSON.stringify({ numStartups: 3, autoCompactEnabled: true }, null, 2)}\n`,
    'claude/settings.json': `${JSON.stringify({ permissions: { allow: ['Bash(ls:*)'] } }, null, 2)}\n`,
  })
})
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))))

const json = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>
const options = (extra: ModSpec[] = []) => ({ cwd, mods: [commandsMod, outputStylesMod, ...extra], env: { CLAUDE_CONFIG_DIR: config } })

describe('/config', () => {
  it('alone lists each setting with its value, the file it is kept in and when a change applies, without a model call', async () => {
    await writeFile(join(config, 'settings.json'), JSON.stringify({ model: 'claude-haiku-4-5', permissions: { defaultMode: 'acceptEdits' } }))
    const run = await runScript([], '/config', options())
    expect(run.requests).toHaveLength(0)
    expect(run.result).toMatchObject({ local_command: 'config', is_error: false })
    const lines = run.result.result!.split('\n')
    expect(lines[0]).toBe('Settings:')
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^  Auto-compact \\(autoCompactEnabled\\) +true  - ${join(config, '.claude.json')}, applies now$`)))
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^  Model \\(model\\) +claude-haiku-4-5  - ${join(config, 'settings.json')}, applies now$`)))
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}Default permission mode \(defaultMode\) +acceptEdits  - .*settings\.json, applies from the next session$/))
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^  Output style \\(outputStyle\\) +default \\(not set\\)  - ${join(cwd, '.claude', 'settings.local.json')}, applies from the next session$`)))
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}Language \(language\) +default \(not set\)/))
    expect(lines.at(-1)).toBe('Change one with /config <key>=<value>, e.g. /config autoCompactEnabled=false.')
  })

  it('key=value writes the key where Claude Code keeps it, every other key of the file kept', async () => {
    const c = await conversation([], options())
    try {
      const off = await c.say('/config autoCompactEnabled=false')
      expect(off.result).toBe(`Set Auto-compact (autoCompactEnabled) to false in ${join(config, '.claude.json')}; applies now.`)
      expect(await json(join(config, '.claude.json'))).toEqual({ numStartups: 3, autoCompactEnabled: false })

      const mode = await c.say('/config permissions.defaultMode=plan')
      expect(mode.result).toBe(`Set Default permission mode (defaultMode) to plan in ${join(config, 'settings.json')}; applies from the next session (/clear starts one).`)
      expect(await json(join(config, 'settings.json'))).toEqual({ permissions: { allow: ['Bash(ls:*)'], defaultMode: 'plan' } })

      // A style's name in any case; the file is the project's own local settings.
      await c.say('/config outputStyle=terse')
      expect(await json(join(cwd, '.claude', 'settings.local.json'))).toEqual({ outputStyle: 'Terse' })

      await c.say('/settings language=French')
      expect((await json(join(config, 'settings.json'))).language).toBe('French')
      const cleared = await c.say('/config language=default')
      expect(cleared.result).toMatch(/to default \(removed from the file\)/)
      expect(await json(join(config, 'settings.json'))).toEqual({ permissions: { allow: ['Bash(ls:*)'], defaultMode: 'plan' } })
      expect(c.server.requests).toHaveLength(0)
    } finally {
      await c.end()
    }
  })

  it('model=<name> switches the running session at once and keeps the name in the user settings for the next start', async () => {
    const c = await conversation([{ reply: 'ok' }], { ...options(), model: 'claude-sonnet-4-5' })
    try {
      const set = await c.say('/config model=claude-haiku-4-5')
      expect(set.result).toBe(`Set Model (model) to claude-haiku-4-5 in ${join(config, 'settings.json')}; applies now.`)
      expect((await json(join(config, 'settings.json'))).model).toBe('claude-haiku-4-5')
      await c.say('hi')
      expect(c.server.requests.map((r) => r.body.model)).toEqual(['claude-haiku-4-5'])
      await c.say('/config model=default')
      expect(await json(join(config, 'settings.json'))).toEqual({ permissions: { allow: ['Bash(ls:*)'] } })
    } finally {
      await c.end()
    }
  })

  it('a model switch a mod refuses writes nothing', async () => {
    const refuse = defineMod({ name: 'refuse', register: (on) => on('config.set', () => ({ deny: 'pinned by policy' })) })
    const run = await runScript([], '/config model=claude-opus-4-5', options([refuse]))
    expect(run.result).toMatchObject({ is_error: true })
    expect(run.result.result).toContain('the switch to model claude-opus-4-5 was refused: pinned by policy')
    expect(await json(join(config, 'settings.json'))).toEqual({ permissions: { allow: ['Bash(ls:*)'] } })
  })

  it('refuses an unknown key, a value the setting does not take and a file that is not a JSON object, naming each, and writes nothing', async () => {
    const c = await conversation([], options())
    try {
      const unknown = await c.say('/config verbose=true')
      expect(unknown).toMatchObject({ is_error: true })
      expect(unknown.result).toContain('unknown setting "verbose"; the settings are autoCompactEnabled, model, defaultMode, outputStyle, language')
      expect((await c.say('/config autoCompactEnabled=maybe')).result).toContain('autoCompactEnabled takes true or false, not "maybe"')
      expect((await c.say('/config defaultMode=yolo')).result).toContain('defaultMode takes one of default, acceptEdits, plan, dontAsk, bypassPermissions, auto, not "yolo"')
      expect((await c.say('/config outputStyle=fancy')).result).toContain('outputStyle takes one of default, Terse, not "fancy"')
      expect((await c.say('/config autoCompactEnabled')).result).toContain('/config takes <key>=<value>, not "autoCompactEnabled"')
      expect(await json(join(config, '.claude.json'))).toEqual({ numStartups: 3, autoCompactEnabled: true })
      await writeFile(join(config, 'settings.json'), '[1, 2]')
      expect((await c.say('/config language=German')).result).toContain(`${join(config, 'settings.json')} does not hold a JSON object`)
      expect(await readFile(join(config, 'settings.json'), 'utf8')).toBe('[1, 2]')
    } finally {
      await c.end()
    }
  })
})
