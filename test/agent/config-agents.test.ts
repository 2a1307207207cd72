import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import agentMod from '../../mods/agent/index.js'
import { withOptions } from '../helpers/with-options.js'
import { runScript, toolsMod } from '../loop/helpers.js'
import { systemText } from '../helpers/system-text.js'

let cwd: string
beforeAll(async () => { cwd = await realpath(await mkdtemp(join(tmpdir(), 'modloop-config-agents-'))) })
afterAll(() => rm(cwd, { recursive: true, force: true }))

const agent = (prompt: string, subagent_type?: string) => ({ tool_use: { name: 'Agent', input: { description: prompt, prompt, ...(subagent_type ? { subagent_type } : {}) } } })
const toolNames = (r: { body: any }) => r.body.tools.map((t: { name: string }) => t.name) as string[]
// No ~/.claude/agents of the real home: the test's own home holds none.
const agents = (defs: Record<string, unknown> = {}) => withOptions(agentMod, { agents: defs, home: cwd })

describe('agent types from the agent mod\'s options', () => {
  it('restrict the child\'s tools and give it its system prompt and model', async () => {
    const reviewer = { description: 'Reviews text', prompt: 'You are the reviewer. Echo what you review.', tools: ['Echo'], model: 'claude-haiku-5-5' }
    const run = await runScript([
      { reply: [agent('review this', 'reviewer')], expect: { model: 'claude-sonnet-4-5' } },
      { reply: [{ tool_use: { name: 'Echo', input: { text: 'reviewed' } } }, { tool_use: { name: 'Echo', input: { text: 'twice' } } }], expect: { model: 'claude-haiku-5-5' } },
      { reply: 'looks fine', expect: { model: 'claude-haiku-5-5' } },
      { reply: 'ok' },
    ], 'go', { cwd, model: 'claude-sonnet-4-5', mods: [toolsMod(), agents({ reviewer })] })
    expect(run.result).toMatchObject({ subtype: 'success', result: 'ok' })
    expect(toolNames(run.requests[0]!)).toEqual(expect.arrayContaining(['Agent', 'Echo', 'Wait', 'Touch']))
    expect(run.requests[0]!.body.tools.find((t: any) => t.name === 'Agent').description).toContain('- reviewer: Reviews text (tools: Echo)')
    const child = run.requests[1]!.body
    expect(toolNames(run.requests[1]!)).toEqual(['Echo'])
    expect(systemText(child)).toBe('You are the reviewer. Echo what you review.')
    expect(child.model).toBe('claude-haiku-5-5')
    expect(child.messages[0].content[0].text).toBe('review this')
    // The parent's tool result: the report, and the structured result hooks see.
    const answered = run.messages.find((m: any) => m.type === 'user' && !m.parent_tool_use_id) as any
    expect(answered.message.content[0]).toMatchObject({ content: expect.stringContaining('\nlooks fine\n</subagent-report>') })
    expect(answered.tool_use_result).toMatchObject({
      status: 'completed', resolvedModel: 'claude-haiku-5-5', content: [{ type: 'text', text: 'looks fine' }], agentId: expect.any(String),
      // Its tool calls, as Claude Code counts them: two in one turn are two.
      totalToolUseCount: 2, totalDurationMs: expect.any(Number), totalTokens: expect.any(Number),
      usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number), cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    })
  })

  it('name their model as Claude Code agent files do: an alias resolves to its id, inherit to the parent\'s', async () => {
    const run = await runScript([
      { reply: [agent('quick look', 'quick'), agent('same model', 'same')] },
      { reply: 'quick done' },
      { reply: 'same done' },
      { reply: 'ok' },
    ], 'go', { cwd, model: 'claude-sonnet-4-5', mods: [toolsMod(), agents({ quick: { description: 'Quick', prompt: 'Be quick.', model: 'haiku' }, same: { description: 'Same', prompt: 'Same.', model: 'inherit' } })] })
    expect(run.result).toMatchObject({ subtype: 'success', result: 'ok' })
    const childModels = run.requests.slice(1, 3).map((r) => [systemText(r.body), r.body.model])
    expect(childModels).toEqual(expect.arrayContaining([['Be quick.', 'claude-haiku-5-5'], ['Same.', 'claude-sonnet-4-5']]))
  })

  it('CLAUDE_CODE_SUBAGENT_MODEL picks the model of an agent nothing names one for; a definition\'s model and inherit come first', async () => {
    const run = await runScript([
      { reply: [agent('plain look'), agent('quick look', 'quick'), agent('same model', 'same')] },
      { reply: 'plain done' },
      { reply: 'quick done' },
      { reply: 'same done' },
      { reply: 'ok' },
    ], 'go', {
      cwd, model: 'claude-sonnet-4-5', env: { CLAUDE_CODE_SUBAGENT_MODEL: 'opus' },
      mods: [toolsMod(), agents({ quick: { description: 'Quick', prompt: 'Be quick.', model: 'haiku' }, same: { description: 'Same', prompt: 'Same.', model: 'inherit' } })],
    })
    expect(run.result).toMatchObject({ subtype: 'success', result: 'ok' })
    const childModels = run.requests.slice(1, 4).map((r) => [systemText(r.body).slice(0, 9), r.body.model])
    expect(childModels).toEqual(expect.arrayContaining([['Be quick.', 'claude-haiku-5-5'], ['Same.', 'claude-sonnet-4-5']]))
    expect(childModels.filter(([, model]) => model === 'claude-opus-5-5')).toHaveLength(1)
  })

  it('a config agent named like a built-in replaces it; a failed child is an error result', async () => {
    const run = await runScript([
      { reply: [agent('try')] },
      { error: { status: 400, message: 'child request refused' } },
      { reply: 'noted' },
    ], 'go', { cwd, mods: [toolsMod(), agents({ 'general-purpose': { description: 'Only waits', tools: ['Wait'] } })] })
    expect(toolNames(run.requests[1]!)).toEqual(['Wait'])
    const answered = run.messages.find((m: any) => m.type === 'user' && !m.parent_tool_use_id) as any
    expect(answered.message.content[0]).toMatchObject({ is_error: true, content: expect.stringContaining('child request refused') })
    expect(answered.tool_use_result).toMatch(/^Error: .*child request refused/s)
  })
})

describe('agent files of the project', () => {
  it('are read from every .claude/agents from the repository root down to cwd; the nearer wins a name', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises')
    const repo = join(cwd, 'repo')
    const file = (name: string, prompt: string) => `---\nname: ${name}\ndescription: ${prompt}\n---\n${prompt}\n`
    await mkdir(join(repo, '.git'), { recursive: true })
    await mkdir(join(repo, '.claude/agents'), { recursive: true })
    await mkdir(join(repo, 'app/.claude/agents'), { recursive: true })
    await writeFile(join(repo, '.claude/agents/rooted.md'), file('rooted', 'Root agent.'))
    await writeFile(join(repo, '.claude/agents/both.md'), file('both', 'Root version.'))
    await writeFile(join(repo, 'app/.claude/agents/both.md'), file('both', 'App version.'))
    const run = await runScript([
      { reply: [agent('one', 'rooted'), agent('two', 'both')] },
      { reply: 'r1' },
      { reply: 'r2' },
      { reply: 'ok' },
    ], 'go', { cwd: join(repo, 'app'), mods: [toolsMod(), agents()] })
    expect(run.requests.slice(1, 3).map((r) => systemText(r.body).split('\n')[0])).toEqual(expect.arrayContaining(['Root agent.', 'App version.']))
  })
})

describe('an agent type\'s tools list, as agent files write it', () => {
  it('"*" is every tool, a rule form names its tool, an alias its tool', async () => {
    const run = await runScript([
      { reply: [agent('all', 'star')] },
      { reply: 'r1' },
      { reply: [agent('some', 'ruled')] },
      { reply: 'r2' },
      { reply: 'ok' },
    ], 'go', { cwd, mods: [toolsMod(), agents({ star: { description: 'All', tools: ['*'] }, ruled: { description: 'Some', tools: ['Echo(x:*)', 'Task'] } })] })
    expect(toolNames(run.requests[1]!)).toEqual(expect.arrayContaining(['Echo', 'Wait', 'Touch', 'Agent']))
    expect(toolNames(run.requests[3]!).sort()).toEqual(['Agent', 'Echo'])
  })
})

describe('subagent nesting', () => {
  it('is three deep by default: the third level has no Agent tool', async () => {
    const run = await runScript([
      { reply: [agent('level 1')] },
      { reply: [agent('level 2')], expect: { lastUserText: 'level 1' } },
      { reply: [agent('level 3')], expect: { lastUserText: 'level 2' } },
      { reply: 'deepest', expect: { lastUserText: 'level 3' } },
      { reply: 'level 2 done' },
      { reply: 'level 1 done' },
      { reply: 'top done' },
    ], 'go', { cwd, mods: [toolsMod(), agents()] })
    expect(run.result.result).toBe('top done')
    expect(run.requests.slice(0, 3).map((r) => toolNames(r).includes('Agent'))).toEqual([true, true, true])
    expect(toolNames(run.requests[3]!)).not.toContain('Agent')
    expect(toolNames(run.requests[3]!)).toContain('Echo')
  })
})

describe('what an agent type brings to each of its runs', () => {
  it('preloads its skills after the task, sends its effort, and runs in the background when it says so', async () => {
    const { writeFile, mkdir } = await import('node:fs/promises')
    const commandsMod = (await import('../../mods/commands/index.js')).default
    const tasksMod = (await import('../../mods/tasks/index.js')).default
    await mkdir(join(cwd, '.claude', 'skills', 'house-style'), { recursive: true })
    await writeFile(join(cwd, '.claude', 'skills', 'house-style', 'SKILL.md'), '---\ndescription: Our style\n---\nWrite short sentences.\n')
    const warnings: string[] = []
    const writer = { description: 'Writes', prompt: 'You write.', tools: ['Echo'], skills: ['house-style', 'missing'], effort: 'low', background: true }
    const run = await runScript([
      { reply: [agent('draft the notes', 'writer')] },
      { reply: 'it runs' },
      { reply: 'drafted', when: { firstUserText: 'draft the notes' } },
      { reply: 'told', expect: { lastUserText: '<task-notification>' } },
    ], 'go', { cwd, model: 'claude-opus-5-5', env: { MODLOOP_HOME: join(cwd, '.home') }, log: (l) => warnings.push(l), mods: [toolsMod(), agents({ writer }), withOptions(commandsMod, { home: cwd }), tasksMod] })
    expect(run.error).toBeUndefined()
    const child = run.requests.find((r) => JSON.stringify(r.body.messages[0]).includes('draft the notes'))!.body
    expect(child.messages[0].content[0].text).toBe(`draft the notes\n\nBase directory for this skill: ${cwd}/.claude/skills/house-style\n\nWrite short sentences.`)
    expect(child.output_config).toEqual({ effort: 'low' })
    // In the background: the call returned its receipt, and the report came back as a turn of its own.
    const answered = run.messages.find((m: any) => m.type === 'user' && !m.parent_tool_use_id) as any
    expect(answered.tool_use_result).toMatchObject({ status: 'async_launched' })
    expect(warnings.join('\n')).toContain('agent type "writer" (config): skill "missing" is not a skill of this session; not preloaded')
  })
})
