import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runStreaming } from '../faults/stream-session.js'

// `/reload-skills` over the SDK's transport: the built CLI against the fake Messages API; the
// skill files change on disk by the model's own Bash calls, real processes, between the prompts.

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-reload-skills-')))
  await mkdir(join(dir, '.claude', 'skills', 'old'), { recursive: true })
  await writeFile(join(dir, '.claude', 'skills', 'old', 'SKILL.md'), '---\nname: old\ndescription: The old way\n---\nDo it the old way.\n')
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const bash = (command: string) => ({ reply: [{ tool_use: { name: 'Bash', input: { command } } }] })
const lastUserText = (request: any) => JSON.stringify(request.body.messages.at(-1).content)

describe('/reload-skills', () => {
  it('reads the skill directories again: a skill written since runs by name, a deleted one is no longer listed', async () => {
    const write = "mkdir -p .claude/skills/deploy && printf -- '---\\nname: deploy\\ndescription: Ships the build\\n---\\nRun the deploy script.\\n' > .claude/skills/deploy/SKILL.md && rm -r .claude/skills/old"
    const run = await runStreaming(dir, {
      script: [bash(write), { reply: 'Wrote the skill.' }, { reply: 'Deploying.' }, { reply: 'There is no such command.' }],
      inputs: ['/reload-skills', 'swap the skills', '/reload-skills', '/deploy now', '/reload-skills', '/old'],
      // .claude/ is a protected path: writing there asks, and no one answers asks here.
      args: ['--permission-mode', 'bypassPermissions'],
    })
    expect(run.code).toBe(0)
    const inits = run.messages.filter((m) => m.type === 'system' && m.subtype === 'init')
    expect(inits[0]!.slash_commands).toEqual(expect.arrayContaining(['old', 'reload-skills']))
    expect(run.results.map((r) => r.result)).toEqual([
      'Reloaded skills and commands: 1 available; nothing added or removed.',
      'Wrote the skill.',
      'Reloaded skills and commands: 1 available; added 1: /deploy; removed 1: /old.',
      'Deploying.',
      'Reloaded skills and commands: 1 available; nothing added or removed.',
      'There is no such command.',
    ])
    expect(lastUserText(run.requests[2])).toContain('Run the deploy script.')
    // The turn after the reload lists the new skill and not the deleted one.
    expect(inits[3]!.slash_commands).toContain('deploy')
    expect(inits[3]!.slash_commands).not.toContain('old')
    // /old is no command any more: headless, the text goes to the model, which is told nothing ran.
    expect(run.requests).toHaveLength(4)
    expect(lastUserText(run.requests[3])).toContain('no command by that name')
  })
})
