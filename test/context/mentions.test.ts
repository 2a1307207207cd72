import { rm, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import agentMod from '../../mods/agent/index.js'
import editMod from '../../mods/edit/index.js'
import memoryMod from '../../mods/memory/index.js'
import mentionsMod from '../../mods/mentions/index.js'
import permissionsMod from '../../mods/permissions/index.js'
import { runScript } from '../loop/helpers.js'
import { png } from '../tools/media-files.js'
import { tempDir, texts, withOptions, writeTree } from './fixtures.js'

let cwd: string
let outside: string
const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n')

beforeAll(async () => {
  cwd = await tempDir('mentions')
  outside = await tempDir('mentions-outside')
  await writeTree(cwd, {
    'src/a.ts': `${lines}\n`,
    'src/b/': '',
    'src/c.md': 'C\n',
    'docs/CLAUDE.md': 'Docs memory.\n',
    'docs/guide.md': 'Guide.\n',
  })
  await writeTree(outside, { 'far.txt': 'far away\n' })
})
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true })
  await rm(outside, { recursive: true, force: true })
})

describe('mentions', () => {
  it('shows an image as the image itself, after the text that names it', async () => {
    const picture = png(3, 2)
    await writeFile(join(cwd, 'shot.png'), picture)
    const warnings: string[] = []
    const run = await runScript([{ reply: 'ok' }], 'what is in @shot.png', { cwd, mods: [mentionsMod], log: (l) => warnings.push(l) })
    const content = run.requests[0]!.body.messages[0].content
    expect(content.at(-2).text).toContain(`The user mentioned @shot.png: [image ${cwd}/shot.png: 3x2`)
    expect(content.at(-1)).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: picture.toString('base64') } })
    expect(warnings).toEqual([])
  })

  it('attaches a file as numbered lines, honouring #L ranges', async () => {
    const run = await runScript([{ reply: 'ok' }], 'see @src/a.ts#L10-12 and @src/c.md', { cwd, mods: [mentionsMod] })
    const [, range, whole] = texts(run.requests[0]!.body, 0)
    expect(range).toBe([
      '<system-reminder>',
      `The user mentioned @src/a.ts#L10-12: the contents of ${cwd}/src/a.ts, lines 10-12 of 30, numbered like cat -n:`,
      '    10\tline 10', '    11\tline 11', '    12\tline 12',
      '',
      '(18 more lines; read on with the Read tool from line 13.)',
      '</system-reminder>',
    ].join('\n'))
    expect(whole).toBe(`<system-reminder>\nThe user mentioned @src/c.md: the contents of ${cwd}/src/c.md, numbered like cat -n:\n     1\tC\n</system-reminder>`)
  })

  it('takes an @ only at the start or after whitespace: not in a URL, an email, quotes or backticks', async () => {
    const run = await runScript([{ reply: 'ok' }], 'see https://x.test/src/@c.md, me@src/c.md, "@src/c.md", `@src/c.md` and (@src/c.md) but @src/c.md', { cwd, mods: [mentionsMod] })
    const [, ...attached] = texts(run.requests[0]!.body, 0)
    expect(attached).toEqual([`<system-reminder>\nThe user mentioned @src/c.md: the contents of ${cwd}/src/c.md, numbered like cat -n:\n     1\tC\n</system-reminder>`])
  })

  it('attaches a file or a range named twice once, however its path is written', async () => {
    const run = await runScript([{ reply: 'ok' }], 'see @src/c.md, again @src/c.md and @./src/c.md, then @src/a.ts#L1 and @src/a.ts#L1-1', { cwd, mods: [mentionsMod] })
    const [, ...attached] = texts(run.requests[0]!.body, 0)
    expect(attached.map((t) => /The user mentioned (\S+):/.exec(t)?.[1])).toEqual(['@src/c.md', '@src/a.ts#L1'])
  })

  it('reads a range written backwards as the same lines', async () => {
    const run = await runScript([{ reply: 'ok' }], 'see @src/a.ts#L12-10', { cwd, mods: [mentionsMod] })
    const [, range] = texts(run.requests[0]!.body, 0)
    expect(range).toContain(`The user mentioned @src/a.ts#L12-10: the contents of ${cwd}/src/a.ts, lines 10-12 of 30, numbered like cat -n:\n    10\tline 10\n    11\tline 11\n    12\tline 12\n`)
  })

  it('@agent-<name> of an agent type tells the model to hand the request to it; another name is read as a path', async () => {
    const warnings: string[] = []
    const agents = withOptions(agentMod, { home: cwd, agents: { reviewer: { description: 'Reviews', prompt: 'Review.' } } })
    const run = await runScript([{ reply: 'ok' }], 'ask @agent-reviewer, not @agent-nobody', { cwd, mods: [agents, mentionsMod], log: (l) => warnings.push(l) })
    const [, asked, ...rest] = texts(run.requests[0]!.body, 0)
    expect(asked).toBe('<system-reminder>\nThe user asked for the agent "reviewer" (@agent-reviewer): hand this request to it with the Agent tool, giving it the context it needs.\n</system-reminder>')
    expect(rest).toEqual([])
    expect(warnings).toEqual([expect.stringContaining(`@agent-nobody: not attached: ${cwd}/agent-nobody does not exist`)])
  })

  it('lists a directory; a missing target attaches nothing and warns naming the mention', async () => {
    const warnings: string[] = []
    const run = await runScript([{ reply: 'ok' }], 'look at @src and @nope.ts', { cwd, mods: [mentionsMod], log: (l) => warnings.push(l) })
    const blocks = texts(run.requests[0]!.body, 0)
    expect(blocks).toHaveLength(2)
    expect(blocks[1]).toBe(`<system-reminder>\nThe user mentioned the directory @src: the entries of ${cwd}/src:\n- a.ts\n- b/\n- c.md\n</system-reminder>`)
    expect(warnings).toEqual([`mentions: @nope.ts: not attached: ${cwd}/nope.ts does not exist`])
  })

  it('refuses files outside cwd unless their directory is allowed', async () => {
    const denied: string[] = []
    const run = await runScript([{ reply: 'ok' }], `read @${outside}/far.txt`, { cwd, mods: [mentionsMod], log: (l) => denied.push(l) })
    expect(texts(run.requests[0]!.body, 0)).toHaveLength(1)
    expect(denied.join('\n')).toContain('outside the directories this session may use')
    const allowed = await runScript([{ reply: 'ok' }], `read @${outside}/far.txt`, { cwd, mods: [withOptions(mentionsMod, { additionalDirectories: [outside] })] })
    expect(texts(allowed.requests[0]!.body, 0)[1]).toContain('     1\tfar away')
  })

  it('a mentioned file counts as read: Edit may change it at once', async () => {
    const run = await runScript([
      { reply: [{ tool_use: { name: 'Edit', input: { file_path: join(cwd, 'src/c.md'), old_string: 'C', new_string: 'D' } } }] },
      { reply: 'edited' },
    ], 'change @src/c.md', { cwd, mods: [mentionsMod, editMod] })
    const result = run.requests[1]!.body.messages[2].content[0]
    expect(result.is_error).toBeUndefined()
  })

  it('a Read deny rule refuses the attachment with a warning naming the file, also through a link', async () => {
    const home = await tempDir('mentions-home')
    await writeTree(cwd, { '.env': 'SECRET=hunter2\n' })
    await symlink(join(cwd, '.env'), join(cwd, 'settings-link'))
    const perms = withOptions(permissionsMod, { deny: ['Read(.env)'], home, trustStore: join(home, 'trusted.json'), managedDir: false })
    const warnings: string[] = []
    try {
      const run = await runScript([{ reply: 'ok' }], 'see @.env, @settings-link and @src/c.md', { cwd, mods: [perms, mentionsMod], log: (l) => warnings.push(l) })
      const blocks = texts(run.requests[0]!.body, 0)
      expect(blocks).toHaveLength(2)
      expect(blocks[1]).toContain('The user mentioned @src/c.md')
      expect(JSON.stringify(run.requests[0]!.body)).not.toContain('hunter2')
      const refused = warnings.filter((w) => w.includes('not attached'))
      expect(refused).toEqual([
        expect.stringContaining(`mentions: @.env: not attached: reading ${cwd}/.env is not permitted`),
        expect.stringContaining(`mentions: @settings-link: not attached: reading ${cwd}/settings-link is not permitted`),
      ])
      expect(refused.join('\n')).toContain('Read(.env)')
    } finally {
      await rm(join(cwd, 'settings-link'))
      await rm(join(cwd, '.env'))
      await rm(home, { recursive: true, force: true })
    }
  })

  it('with the memory mod, a mentioned file brings its directory\'s CLAUDE.md', async () => {
    const run = await runScript([{ reply: 'ok' }], 'see @docs/guide.md', { cwd, mods: [withOptions(memoryMod, { home: cwd, managedPath: false, currentDate: false }), mentionsMod] })
    const blocks = texts(run.requests[0]!.body, 0)
    expect(blocks).toHaveLength(3)
    expect(blocks[1]).toContain('Guide.')
    expect(blocks[2]).toContain(`Contents of ${cwd}/docs/CLAUDE.md (project instructions, checked into the codebase):\n\nDocs memory.`)
  })
})
