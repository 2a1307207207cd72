import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import commandsMod from '../../mods/commands/index.js'
import memoryMod from '../../mods/memory/index.js'
import { runScript } from '../loop/helpers.js'
import { tempDir, texts, withOptions, writeTree } from './fixtures.js'

let root: string
beforeEach(async () => { root = await tempDir('memory-parents') })
afterEach(() => rm(root, { recursive: true, force: true }))

const filesIn = (text: string) => [...text.matchAll(/^Contents of (\S+) \(/gm)].map((m) => m[1]!.replace(`${root}/`, ''))

describe('memory outside a git repository', () => {
  it('reads CLAUDE.md in every parent directory down to cwd, the home .claude once as user memory', async () => {
    const home = join(root, 'home')
    await writeTree(root, {
      'CLAUDE.md': 'Top memory.\n',
      'home/.claude/CLAUDE.md': 'User memory.\n',
      'home/CLAUDE.md': 'Home-level memory.\n',
      'home/work/CLAUDE.md': 'Work memory.\n',
      'home/work/app/CLAUDE.md': 'App memory.\n',
    })
    const run = await runScript([{ reply: 'ok' }], 'hello', { cwd: join(home, 'work', 'app'), mods: [withOptions(memoryMod, { home, managedPath: false })] })
    const reminder = texts(run.requests[0]!.body, 0)[1]!
    expect(filesIn(reminder)).toEqual(['home/.claude/CLAUDE.md', 'CLAUDE.md', 'home/CLAUDE.md', 'home/work/CLAUDE.md', 'home/work/app/CLAUDE.md'])
  })
})

describe('memory inside a git repository', () => {
  it('reads CLAUDE.md above the repository root too, as Claude Code does (a parent folder of several repositories)', async () => {
    const home = join(root, 'home')
    await writeTree(root, {
      'code/CLAUDE.md': 'All my repositories.\n',
      'code/repo/.git/': '',
      'code/repo/CLAUDE.md': 'Repo memory.\n',
      'code/repo/app/CLAUDE.md': 'App memory.\n',
      'home/.keep': '',
    })
    const run = await runScript([{ reply: 'ok' }], 'hello', { cwd: join(root, 'code', 'repo', 'app'), mods: [withOptions(memoryMod, { home, managedPath: false })] })
    expect(filesIn(texts(run.requests[0]!.body, 0)[1]!)).toEqual(['code/CLAUDE.md', 'code/repo/CLAUDE.md', 'code/repo/app/CLAUDE.md'])
  })
})

describe('frontmatter read leniently', () => {
  it('is warned about, naming the file and the line', async () => {
    const home = join(root, 'home')
    const cwd = join(root, 'project')
    await writeTree(root, {
      'project/.git/': '',
      'project/.claude/rules/x.md': '---\npaths: [\n---\nA rule.\n',
      'project/.claude/commands/c.md': '---\nname: c\ndescription: [unclosed\nargument-hint: [file] [line]\n---\nDo it.\n',
      'home/.keep': '',
    })
    const warnings: string[] = []
    await runScript([{ reply: 'ok' }], 'hello', {
      cwd, log: (l) => warnings.push(l),
      mods: [withOptions(memoryMod, { home, managedPath: false }), withOptions(commandsMod, { home })],
    })
    expect(warnings).toContainEqual(expect.stringContaining(`${join(cwd, '.claude', 'rules', 'x.md')}: frontmatter line 2 (paths: [) is not valid YAML`))
    expect(warnings).toContainEqual(expect.stringContaining(`${join(cwd, '.claude', 'commands', 'c.md')}: frontmatter line 3 (description: [unclosed) is not valid YAML`))
    expect(warnings.join('\n')).not.toContain('argument-hint')
  })
})
