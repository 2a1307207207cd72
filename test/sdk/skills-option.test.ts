import { join } from 'node:path'
import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import commandsMod from '../../mods/commands/index.js'
import permissionsMod from '../../mods/permissions/index.js'
import { runScript } from '../loop/helpers.js'
import { conversation } from './conversation.js'
import { systemText } from '../helpers/system-text.js'
import { tempDir, texts, withOptions, writeTree } from '../context/fixtures.js'

// The Agent SDK's `skills` option: which skills the model is offered, through a real session.

let root: string
let cwd: string
beforeAll(async () => {
  root = await tempDir('skills-option')
  cwd = join(root, 'project')
  await writeTree(root, {
    'project/.claude/skills/pdf/SKILL.md': '---\ndescription: Work with PDF files\n---\nUse pdftotext.\n',
    'project/.claude/skills/docx/SKILL.md': '---\ndescription: Work with Word files\n---\nUse pandoc.\n',
    // Its frontmatter names it otherwise: the directory's name matches too.
    'project/.claude/skills/sheets/SKILL.md': '---\nname: spreadsheet-tools\ndescription: Work with spreadsheets\n---\nUse csvkit.\n',
    // Granting tools, it asks before it runs, unless a rule allows it.
    'project/.claude/skills/guarded/SKILL.md': '---\ndescription: Runs echo\nallowed-tools: Bash(echo:*)\n---\nEcho things.\n',
    'home/': '',
  })
})
afterAll(() => rm(root, { recursive: true, force: true }))

const commands = () => withOptions(commandsMod, { home: join(root, 'home') })
const skill = (id: string, name: string) => ({ reply: [{ tool_use: { id, name: 'Skill', input: { skill: name } } }] })
const resultOf = (body: any, id: string) => body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])).find((b: any) => b.type === 'tool_result' && b.tool_use_id === id)
const toolNames = (body: any) => (body.tools as { name: string }[]).map((t) => t.name)

describe('the skills option', () => {
  it('a list: only those are listed to the model; the Skill tool refuses the others, naming the ones enabled', async () => {
    const run = await runScript([skill('toolu_1', 'docx'), skill('toolu_2', 'pdf'), { reply: 'done' }], 'convert', {
      cwd, mods: [commands()], skills: ['pdf', 'sheets'],
    })
    const system = systemText(run.requests[0]!.body as any)
    expect(system).toContain('- pdf: Work with PDF files')
    expect(system).toContain('- spreadsheet-tools: Work with spreadsheets')
    expect(system).not.toContain('docx')
    expect(system).not.toContain('guarded')
    const refused = resultOf(run.requests[1]!.body, 'toolu_1')
    expect(refused).toMatchObject({ is_error: true })
    expect(JSON.stringify(refused.content)).toContain('The skill \\"docx\\" is not enabled for this session: the skills option lists only pdf, spreadsheet-tools.')
    expect(JSON.stringify(run.requests[2]!.body)).toContain('Use pdftotext.')
    expect(run.result).toMatchObject({ subtype: 'success', result: 'done' })
  })

  it('an unlisted skill still runs when the prompt types /name: the list filters what the model is offered', async () => {
    const run = await runScript([{ reply: 'ok' }], '/docx', { cwd, mods: [commands()], skills: ['pdf'] })
    expect(texts(run.requests[0]!.body, 0).join('\n')).toContain('Use pandoc.')
  })

  it('[]: no skill is offered and there is no Skill tool; "all" offers every one', async () => {
    const none = await runScript([{ reply: 'ok' }], 'hi', { cwd, mods: [commands()], skills: [] })
    expect(toolNames(none.requests[0]!.body)).not.toContain('Skill')
    expect(systemText(none.requests[0]!.body as any)).not.toContain('# Skills')
    const all = await runScript([{ reply: 'ok' }], 'hi', { cwd, mods: [commands()], skills: 'all' })
    expect(toolNames(all.requests[0]!.body)).toContain('Skill')
    for (const name of ['pdf', 'docx', 'spreadsheet-tools', 'guarded']) expect(systemText(all.requests[0]!.body as any)).toContain(`- ${name}:`)
  })

  it('a name that matches no skill is reported; a value of another shape is reported and every skill offered', async () => {
    const logged: string[] = []
    await runScript([{ reply: 'ok' }], 'hi', { cwd, mods: [commands()], skills: ['pdf', 'nope'], log: (l) => void logged.push(l) })
    expect(logged.join('\n')).toContain('the skills option names "nope", which is no skill found for this session')
    const odd: string[] = []
    const run = await runScript([{ reply: 'ok' }], 'hi', { cwd, mods: [commands()], skills: 'some' as never, log: (l) => void odd.push(l) })
    expect(odd.join('\n')).toContain('the skills option must be "all" or a list of skill names (got "some")')
    expect(systemText(run.requests[0]!.body as any)).toContain('- docx:')
  })

  it('a listed skill runs without an ask, as the SDK adds Skill(name) to allowedTools; without the option it asks', async () => {
    const ask = async (asked: string[]) => {
      const canUseTool = async (tool: string) => {
        asked.push(tool)
        return { behavior: 'allow' as const, updatedInput: {} }
      }
      return canUseTool
    }
    const plain: string[] = []
    await runScript([skill('toolu_1', 'guarded'), { reply: 'ok' }], 'go', { cwd, mods: [commands(), permissionsMod], canUseTool: await ask(plain) })
    expect(plain).toEqual(['Skill'])
    const listed: string[] = []
    const run = await runScript([skill('toolu_1', 'guarded'), { reply: 'ok' }], 'go', { cwd, mods: [commands(), permissionsMod], skills: ['guarded'], canUseTool: await ask(listed) })
    expect(listed).toEqual([])
    expect(JSON.stringify(run.requests[1]!.body)).toContain('Echo things.')
  })
})

describe('Query.reloadSkills', () => {
  it('a skill written while the session runs is listed and callable after the reload; the answer lists the skills loaded', async () => {
    const dir = join(root, 'reload-project')
    await writeTree(dir, { '.claude/skills/first/SKILL.md': '---\ndescription: The first skill\n---\nFirst steps.\n' })
    const c = await conversation([{ reply: 'one' }, skill('toolu_1', 'second'), { reply: 'two' }], { cwd: dir, mods: [commands()] })
    try {
      await c.say('hi')
      await writeTree(dir, { '.claude/skills/second/SKILL.md': '---\ndescription: The second skill\n---\nSecond steps.\n' })
      const answer = await c.q.reloadSkills()
      expect(answer.skills.map((s) => s.name).sort()).toEqual(['first', 'second'])
      expect(answer.skills.find((s) => s.name === 'second')).toMatchObject({ description: expect.stringContaining('The second skill') })
      await c.say('again')
    } finally {
      await c.end()
    }
    expect(systemText(c.server.requests[0]!.body as any)).not.toContain('second')
    expect(systemText(c.server.requests[1]!.body as any)).toContain('- second: The second skill')
    expect(JSON.stringify(c.server.requests[2]!.body)).toContain('Second steps.')
  })

  it('without a mod that loads skills it rejects, saying so', async () => {
    const c = await conversation([], { cwd, mods: [] })
    try {
      await expect(c.q.reloadSkills()).rejects.toThrow('Query.reloadSkills: no loaded mod provides "skillReload"')
    } finally {
      await c.end()
    }
  })
})
