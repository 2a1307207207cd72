import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import agentMod from '../../mods/agent/index.js'
import { withOptions } from '../helpers/with-options.js'
import { runScript } from '../loop/helpers.js'

let cwd: string
beforeAll(async () => {
  cwd = await realpath(await mkdtemp(join(tmpdir(), 'modloop-agents-command-')))
  await mkdir(join(cwd, '.claude/agents'), { recursive: true })
  await writeFile(join(cwd, '.claude/agents/reviewer.md'), '---\nname: reviewer\ndescription: Reviews diffs\nmodel: haiku\n---\nReview.\n')
})
afterAll(() => rm(cwd, { recursive: true, force: true }))

describe('/agents', () => {
  it('lists every agent type with where it is defined, without a model call', async () => {
    const mod = withOptions(agentMod, { agents: { helper: { description: 'Helps\nwith more lines' } }, home: join(cwd, 'home') })
    const run = await runScript([], '/agents', { cwd, mods: [mod] })
    expect(run.requests).toHaveLength(0)
    expect(run.result).toMatchObject({ local_command: 'agents', is_error: false })
    const lines = (run.result.result as string).split('\n')
    expect(lines[0]).toMatch(/^Agent types \(\d+\):$/)
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}general-purpose \(built-in\) - \S/))
    expect(lines).toContainEqual(`  reviewer (project: ${join(cwd, '.claude/agents/reviewer.md')}, model haiku) - Reviews diffs`)
    expect(lines).toContainEqual('  helper (config) - Helps')
    expect(lines.at(-1)).toMatch(/\.claude\/agents\/ \(this project\) or ~\/\.claude\/agents\/ \(all projects\)\.$/)
  })
})
