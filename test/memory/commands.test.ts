import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import memoryMod from '../../mods/memory/index.js'
import { encodeCwd } from '../../mods/transcripts/store/paths.js'
import { runScript } from '../loop/helpers.js'
import { tempDir, texts, withOptions, writeTree } from '../context/fixtures.js'

let root: string
let home: string
let cwd: string

beforeAll(async () => {
  root = await tempDir('memory-commands')
  home = join(root, 'home')
  cwd = join(root, 'repo')
  await writeTree(root, {
    'home/.claude/CLAUDE.md': 'User memory.\n',
    'repo/.git/': '',
    'repo/CLAUDE.md': 'Root memory. @docs/style.md\n',
    'repo/docs/style.md': 'Style guide.\n',
  })
})
afterAll(() => rm(root, { recursive: true, force: true }))

const memory = () => withOptions(memoryMod, { home, managedPath: false })

describe('/init and /memory', () => {
  it('/init is a prompt: the turn asks the model to write or improve CLAUDE.md, behind the command header', async () => {
    const run = await runScript([{ reply: 'written' }], '/init focus on tests', { cwd, mods: [memory()] })
    expect(run.requests).toHaveLength(1)
    const [header, body] = texts(run.requests[0]!.body, 0)
    expect(header).toBe('<command-message>init</command-message>\n<command-name>/init</command-name>\n<command-args>focus on tests</command-args>\n')
    expect(body).toMatch(/^Study this codebase and write a CLAUDE\.md file/)
    expect(body).toContain('If a CLAUDE.md exists already, propose improvements')
    expect(run.result).toMatchObject({ result: 'written', is_error: false })
  })

  it('/memory lists the files loaded, with kind and reason, and the files to edit, without a model call', async () => {
    const run = await runScript([], '/memory', { cwd, mods: [memory()] })
    expect(run.requests).toHaveLength(0)
    expect(run.result).toMatchObject({ local_command: 'memory' })
    expect((run.result.result as string).split('\n')).toEqual([
      'Memory files loaded (3):',
      `  User     ${join(home, '.claude/CLAUDE.md')} (at start)`,
      `  Project  ${join(cwd, 'CLAUDE.md')} (at start)`,
      `  Project  ${join(cwd, 'docs/style.md')} (imported by ${join(cwd, 'CLAUDE.md')})`,
      `Project memory: ${join(cwd, 'CLAUDE.md')}`,
      `User memory:    ${join(home, '.claude/CLAUDE.md')}`,
      `Auto memory:    ${join(process.env.MODLOOP_HOME!, 'projects', encodeCwd(cwd), 'memory')}`,
    ])
  })
})
