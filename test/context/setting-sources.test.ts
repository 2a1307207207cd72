import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { writeTree } from './fixtures.js'

let dir: string
let project: string
const env = () => ({ HOME: join(dir, 'home'), CLAUDE_CONFIG_DIR: '', MODLOOP_HOME: join(dir, 'modloop-home') })
const initOf = (out: string) => out.trim().split('\n').map((l) => JSON.parse(l)).find((m) => m.subtype === 'init')

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-sources-')))
  project = join(dir, 'project')
  await writeTree(dir, {
    'project/.claude/commands/greet.md': 'Hello $ARGUMENTS from the project.\n',
    'project/.claude/skills/tidy/SKILL.md': '---\ndescription: Tidy up\n---\nTidy.\n',
    'project/.claude/output-styles/pirate.md': '---\nname: Pirate\n---\nSpeak like a pirate.\n',
    'project/.claude/settings.local.json': JSON.stringify({ outputStyle: 'Pirate' }),
    'home/.claude/commands/mine.md': 'A user command.\n',
    'project/.claude/agents/checker.md': '---\nname: checker\ndescription: The project\'s checker\n---\nCheck.\n',
    'home/.claude/agents/helper.md': '---\nname: helper\ndescription: My own helper\n---\nHelp.\n',
  })
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('--setting-sources gates commands, skills, agent types and output styles as it gates settings', () => {
  const run = (sources: string[]) => runCli(['-p', '/greet bob', '--output-format', 'stream-json', '--verbose', ...sources], { script: [{ reply: 'ok' }], cwd: project, env: env() })

  it('with every source, the project command, skill, agent type and style are in force', async () => {
    const r = await run([])
    const init = initOf(r.out)
    expect(init.output_style).toBe('Pirate')
    expect(init.slash_commands).toEqual(expect.arrayContaining(['greet', 'tidy', 'mine']))
    expect(init.agents).toEqual(expect.arrayContaining(['checker', 'helper']))
  })

  it('--setting-sources user leaves out the project and local ones', async () => {
    const r = await run(['--setting-sources', 'user'])
    const init = initOf(r.out)
    expect(init.output_style).toBe('default')
    expect(init.slash_commands).toContain('mine')
    expect(init.slash_commands).not.toContain('greet')
    expect(init.slash_commands).not.toContain('tidy')
    expect(init.agents).toContain('helper')
    expect(init.agents).not.toContain('checker')
    expect(JSON.stringify(r.requests[0]?.body ?? {})).not.toContain('from the project')
  })
})
