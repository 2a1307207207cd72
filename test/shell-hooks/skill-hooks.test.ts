import { mkdir, realpath, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import agentMod from '../../mods/agent/index.js'
import { readAgentDir } from '../../mods/agent/definitions.js'
import commandsMod from '../../mods/commands/index.js'
import { dump, dumped, makeBox, notices, run, withOptions, type Box } from './helpers.js'

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
    ], 'ship it', { mods: [commands] })
    expect((await dumped(box, 'Every')).map((e) => e.tool_use_id)).toEqual(['toolu_1'])
  })
})

/** An agent file whose hooks dump PreToolUse [Echo] and Stop firings. */
async function agentFile(box: Box, dir: string, name: string): Promise<string> {
  await mkdir(dir, { recursive: true })
  const file = join(dir, `${name}.md`)
  await writeFile(file, [
    '---', `name: ${name}`, 'description: Reviews', 'hooks:',
    '  PreToolUse:', '    - matcher: Echo', '      hooks:', `        - {type: command, command: "${dump(box, `${name}-Pre`)}"}`,
    '  Stop:', '    - hooks:', `        - {type: command, command: "${dump(box, `${name}-Stop`)}"}`,
    '---', 'Review.', '',
  ].join('\n'))
  return file
}

// The parent sends the subagent off, the subagent calls Echo and answers, then the parent calls Echo and answers.
const viaSubagent = (type: string) => [
  { reply: [{ tool_use: { id: 'toolu_agent', name: 'Agent', input: { description: 'review', prompt: 'review it', subagent_type: type } } }] },
  { reply: [echo('toolu_sub')] },
  { reply: 'reviewed' },
  { reply: [echo('toolu_main')] },
  { reply: 'ok' },
]

async function trust(box: Box, folder: string): Promise<void> {
  await mkdir(dirname(box.store), { recursive: true })
  await writeFile(box.store, JSON.stringify({ workspaces: { [await realpath(folder)]: { trustedAt: new Date().toISOString() } } }))
}

describe('agent frontmatter hooks', () => {
  it('hold for their subagent only, while it runs; its Stop hooks fire as SubagentStop', async () => {
    await agentFile(box, join(box.home, '.claude', 'agents'), 'rev')
    const r = await run(box, viaSubagent('rev'), 'go', { mods: [withOptions(agentMod, { home: box.home })] })
    expect(r.result).toMatchObject({ terminal_reason: 'completed', result: 'ok' })
    const pre = await dumped(box, 'rev-Pre')
    expect(pre.map((e) => [e.tool_use_id, e.agent_type])).toEqual([['toolu_sub', 'rev']])
    const stops = await dumped(box, 'rev-Stop')
    expect(stops.map((e) => [e.hook_event_name, e.agent_type, e.last_assistant_message])).toEqual([['SubagentStop', 'rev', 'reviewed']])
    expect(stops[0]!.agent_id).toBe(pre[0]!.agent_id)
  })

  it('of a project agent run only where that project folder itself is trusted', async () => {
    const file = await agentFile(box, join(box.project, '.claude', 'agents'), 'rev')
    const untrusted = await run(box, viaSubagent('rev'), 'go', { mods: [withOptions(agentMod, { home: box.home })] })
    expect(await dumped(box, 'rev-Pre')).toEqual([])
    expect(notices(untrusted.messages).join('\n')).toContain(`${file}: the hooks of agent "rev" did not run: the folder ${box.project} is not trusted itself`)
    // A parent folder's trust covers the project for other purposes, not for these hooks.
    await trust(box, box.root)
    await run(box, viaSubagent('rev'), 'go', { mods: [withOptions(agentMod, { home: box.home })] })
    expect(await dumped(box, 'rev-Pre')).toEqual([])
    await trust(box, box.project)
    await run(box, viaSubagent('rev'), 'go', { mods: [withOptions(agentMod, { home: box.home })] })
    expect((await dumped(box, 'rev-Pre')).map((e) => e.tool_use_id)).toEqual(['toolu_sub'])
  })

  it('come from an agent of the config too', async () => {
    const hooks = { PreToolUse: [{ matcher: 'Echo', hooks: [{ type: 'command', command: dump(box, 'cfg-Pre') }] }] }
    const agents = { cfg: { description: 'From the config', hooks } }
    await run(box, viaSubagent('cfg'), 'go', { mods: [withOptions(agentMod, { home: box.home, agents })] })
    expect((await dumped(box, 'cfg-Pre')).map((e) => [e.tool_use_id, e.agent_type])).toEqual([['toolu_sub', 'cfg']])
  })

  it('that are not a map of events are reported, naming the file', async () => {
    const dir = join(box.project, '.claude', 'agents')
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, 'bad.md'), '---\nname: bad\ndescription: Bad\nhooks: [1, 2]\n---\nx\n')
    const warnings: string[] = []
    expect(await readAgentDir(dir, 'project', (m) => warnings.push(m))).toEqual([])
    expect(warnings).toEqual([`${join(dir, 'bad.md')}: hooks: hooks must map event names to matcher groups, as in settings.json`])
  })
})

describe('agent files that are not files', () => {
  it('are reported and skipped, not read: a directory, a FIFO', async () => {
    const dir = join(box.project, '.claude', 'agents')
    await mkdir(join(dir, 'folder.md'), { recursive: true })
    const { execFileSync } = await import('node:child_process')
    execFileSync('mkfifo', [join(dir, 'pipe.md')])
    await writeFile(join(dir, 'ok.md'), '---\nname: ok\ndescription: Fine\n---\nx\n')
    const warnings: string[] = []
    expect((await readAgentDir(dir, 'project', (m) => warnings.push(m))).map((d) => d.name)).toEqual(['ok'])
    expect(warnings).toEqual([`${join(dir, 'folder.md')}: not a regular file; skipped`, `${join(dir, 'pipe.md')}: not a regular file; skipped`])
  })

  it('an agent named like an Object.prototype member has no hooks of its own', async () => {
    await mkdir(join(box.home, '.claude', 'agents'), { recursive: true })
    await writeFile(join(box.home, '.claude', 'agents', 'constructor.md'), '---\nname: constructor\ndescription: Builds\n---\nBuild.\n')
    const { writeSettings, cmd } = await import('./helpers.js')
    await writeSettings(box, { SubagentStart: [{ hooks: [cmd(dump(box, 'SubagentStart'))] }] })
    await run(box, viaSubagent('constructor'), 'go', { mods: [withOptions(agentMod, { home: box.home })] })
    expect((await dumped(box, 'SubagentStart')).map((e) => e.agent_type)).toEqual(['constructor'])
  })
})
