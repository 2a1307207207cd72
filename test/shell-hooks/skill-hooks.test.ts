import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import commandsMod from '../../mods/commands/index.js'
import { dump, dumped, makeBox, run, withOptions, type Box } from './helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

const echo = (id: string) => ({ tool_use: { id, name: 'Echo', input: { text: id } } })

async function skill(box: Box): Promise<void> {
  const dir = join(box.project, '.claude', 'skills', 'deploy')
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'SKILL.md'), [
    '---',
    'name: deploy',
    'description: Ships the build',
    'hooks:',
    '  PreToolUse:',
    '    - matcher: Echo',
    '      hooks:',
    `        - type: command`,
    `          command: "${dump(box, 'Once')}"`,
    '          once: true',
    `        - type: command`,
    `          command: "${dump(box, 'Every')}"`,
    '---',
    'Deploy it.',
    '',
  ].join('\n'))
}

describe('skill frontmatter hooks', () => {
  it('register when a person runs the skill and stay for the session; `once` runs one time', async () => {
    await skill(box)
    const commands = withOptions(commandsMod, { home: box.home })
    await run(box, [{ reply: [echo('toolu_1')] }, { reply: [echo('toolu_2')] }, { reply: 'ok' }], '/deploy', { mods: [commands] })
    expect((await dumped(box, 'Once')).map((e) => e.tool_use_id)).toEqual(['toolu_1'])
    expect((await dumped(box, 'Every')).map((e) => e.tool_use_id)).toEqual(['toolu_1', 'toolu_2'])
  })

  it('register when the model runs the skill through the Skill tool, not before', async () => {
    await skill(box)
    const commands = withOptions(commandsMod, { home: box.home })
    await run(box, [
      { reply: [echo('toolu_0')] },
      { reply: [{ tool_use: { id: 'toolu_s', name: 'Skill', input: { skill: 'deploy' } } }] },
      { reply: [echo('toolu_1')] },
      { reply: 'ok' },
    ], 'ship it', { mods: [commands], permissionMode: 'bypassPermissions' })
    expect((await dumped(box, 'Every')).map((e) => e.tool_use_id)).toEqual(['toolu_1'])
  })
})

describe('agent frontmatter hooks', () => {
  it('are reported as not supported, naming the file', async () => {
    const { readAgentDir } = await import('../../mods/agent/definitions.js')
    const dir = join(box.project, '.claude', 'agents')
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, 'rev.md'), '---\nname: rev\ndescription: Reviews\nhooks:\n  Stop:\n    - hooks: [{type: command, command: "true"}]\n---\nReview.\n')
    const warnings: string[] = []
    const defs = await readAgentDir(dir, (m) => warnings.push(m))
    expect(defs.map((d) => d.name)).toEqual(['rev'])
    expect(warnings).toEqual([`${join(dir, 'rev.md')}: frontmatter "hooks" of an agent are not supported by modloop; they are ignored`])
  })
})
