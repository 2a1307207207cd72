import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import agentMod from '../../mods/agent/index.js'
import tasksMod from '../../mods/tasks/index.js'
import taskListMod from '../../mods/task-list/index.js'
import readMod from '../../mods/read/index.js'
import writeMod from '../../mods/write/index.js'
import editMod from '../../mods/edit/index.js'
import bashMod from '../../mods/bash/index.js'
import memoryMod from '../../mods/memory/index.js'
import { runTasks } from '../tasks/helpers.js'
import { mcp, stdio } from '../mcp/helpers.js'

let cwd: string
beforeAll(async () => {
  cwd = await realpath(await mkdtemp(join(tmpdir(), 'modloop-subtools-')))
})
afterAll(() => rm(cwd, { recursive: true, force: true }))

const agent = (prompt: string, extra: Record<string, unknown> = {}) =>
  ({ tool_use: { name: 'Agent', input: { description: 'side job', prompt, ...extra } } })
const toolsOf = (requests: { body: any }[], prompt: string): string[] => {
  const first = (b: any) => JSON.stringify(b.messages[0].content)
  return requests.find((r) => first(r.body).includes(prompt))!.body.tools.map((t: any) => t.name)
}
const options = (mods: unknown[]) => ({ cwd, mods: mods as never, env: { MODLOOP_HOME: join(cwd, '.home'), CLAUDE_CODE_ENABLE_TODO_TOOLS: '1' } })

describe('the tools a subagent gets', () => {
  it('a background subagent is not given the task list, which stays the main conversation\'s; a foreground one is', async () => {
    const run = await runTasks([
      { reply: 'fg report', when: { firstUserText: 'FG-JOB' } },
      { reply: 'bg report', when: { firstUserText: 'BG-JOB' } },
      { reply: [agent('FG-JOB', { run_in_background: false }), agent('BG-JOB', { run_in_background: true })] },
      { reply: 'launched' },
      { reply: 'both reported' },
    ], 'go', options([agentMod, tasksMod, taskListMod]))
    expect(run.error).toBeUndefined()
    const list = ['TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate']
    expect(run.requests[0]!.body.tools.map((t: any) => t.name)).toEqual(expect.arrayContaining(list))
    expect(toolsOf(run.requests, 'FG-JOB')).toEqual(expect.arrayContaining(list))
    const bg = toolsOf(run.requests, 'BG-JOB')
    expect(bg).toContain('Agent')
    expect(bg.filter((n) => list.includes(n))).toEqual([])
  })

  it('Explore and Plan are built-in types that read and run commands but change no file and start no agent', async () => {
    const run = await runTasks([
      { reply: 'found it', when: { firstUserText: 'EXPLORE-JOB' } },
      { reply: 'the plan', when: { firstUserText: 'PLAN-JOB' } },
      { reply: [agent('EXPLORE-JOB', { subagent_type: 'Explore', run_in_background: false }), agent('PLAN-JOB', { subagent_type: 'Plan', run_in_background: false })] },
      { reply: 'done' },
    ], 'go', options([agentMod, readMod, writeMod, editMod, bashMod]))
    expect(run.error).toBeUndefined()
    expect(run.results[0]).toMatchObject({ subtype: 'success', result: 'done' })
    const main = run.requests[0]!.body
    expect(main.tools.find((t: any) => t.name === 'Agent').description).toMatch(/- Explore: .*\(tools: all but Agent, Edit, Write, NotebookEdit, ExitPlanMode\)/)
    for (const job of ['EXPLORE-JOB', 'PLAN-JOB']) {
      const tools = toolsOf(run.requests, job)
      expect(tools).toEqual(expect.arrayContaining(['Read', 'Bash']))
      expect(tools.filter((n) => ['Agent', 'Edit', 'Write'].includes(n))).toEqual([])
    }
    const results = run.requests.at(-1)!.body.messages.at(-1).content.map((b: any) => b.content)
    expect(results).toEqual([expect.stringContaining('agent-type="Explore">\nfound it\n'), expect.stringContaining('agent-type="Plan">\nthe plan\n')])
  })

  it('an agent type\'s tools name an MCP server\'s tools all at once by the server (mcp__fx, mcp__fx__*)', async () => {
    const only = (tools: string[]) => ({ description: 'uses fx', prompt: 'You use fx.', tools })
    const run = await runTasks([
      { reply: 'star done', when: { firstUserText: 'STAR-JOB' } },
      { reply: 'server done', when: { firstUserText: 'SERVER-JOB' } },
      { reply: [agent('STAR-JOB', { subagent_type: 'star', run_in_background: false }), agent('SERVER-JOB', { subagent_type: 'server', run_in_background: false })] },
      { reply: 'done' },
    ], 'go', { ...options([agentMod, readMod, mcp()]), mcpServers: { fx: stdio() }, agents: { star: only(['Read', 'mcp__fx__*']), server: only(['mcp__fx']) } } as never)
    expect(run.error).toBeUndefined()
    expect(toolsOf(run.requests, 'STAR-JOB')).toEqual(expect.arrayContaining(['Read', 'mcp__fx__echo', 'mcp__fx__pid']))
    expect(toolsOf(run.requests, 'SERVER-JOB')).toEqual(expect.arrayContaining(['mcp__fx__echo', 'mcp__fx__pid']))
    expect(toolsOf(run.requests, 'SERVER-JOB')).not.toContain('Read')
  })

  it('CLAUDE_AGENT_SDK_DISABLE_BUILTIN_AGENTS=1 leaves only the agent types the session defines', async () => {
    const run = await runTasks([
      { reply: [{ tool_use: { name: 'Agent', input: { description: 'side job', prompt: 'look' } } }, agent('MINE-JOB', { subagent_type: 'mine', run_in_background: false })] },
      { reply: 'mine done', when: { firstUserText: 'MINE-JOB' } },
      { reply: 'done' },
    ], 'go', { ...options([agentMod, readMod]), agents: { mine: { description: 'my own', prompt: 'You are mine.' } }, env: { MODLOOP_HOME: join(cwd, '.home'), CLAUDE_AGENT_SDK_DISABLE_BUILTIN_AGENTS: '1' } } as never)
    expect(run.error).toBeUndefined()
    const description = run.requests[0]!.body.tools.find((t: any) => t.name === 'Agent').description
    expect(description).toContain('- mine: my own')
    expect(description).not.toMatch(/- (general-purpose|Explore|Plan):/)
    const [refused, report] = run.requests.at(-1)!.body.messages.at(-1).content
    expect(refused).toMatchObject({ is_error: true, content: 'Agent type "general-purpose" not found. Available agent types: mine' })
    expect(report.content).toContain('mine done')
  })

  it('Explore and Plan, and an agent type with omitClaudeMd, start without the memory files; general-purpose has them', async () => {
    const project = await realpath(await mkdtemp(join(tmpdir(), 'modloop-subtools-memory-')))
    await writeFile(join(project, 'CLAUDE.md'), 'MEMORY-MARKER: indent with tabs\n')
    try {
      const jobs = { 'GP-JOB': 'general-purpose', 'EXPLORE-JOB': 'Explore', 'PLAN-JOB': 'Plan', 'LEAN-JOB': 'lean' }
      const run = await runTasks([
        ...Object.keys(jobs).map((job) => ({ reply: 'ok', when: { firstUserText: job } })),
        { reply: Object.entries(jobs).map(([job, type]) => agent(job, { subagent_type: type, run_in_background: false })) },
        { reply: 'done' },
      ], 'go', { ...options([agentMod, memoryMod]), cwd: project, agents: { lean: { description: 'lean', prompt: 'You are lean.', omitClaudeMd: true } } } as never)
      expect(run.error).toBeUndefined()
      const hasMemory = (job: string) => JSON.stringify(run.requests.find((r) => JSON.stringify(r.body.messages[0].content).includes(job))!.body.messages[0]).includes('MEMORY-MARKER')
      expect(JSON.stringify(run.requests[0]!.body.messages[0])).toContain('MEMORY-MARKER')
      expect(Object.keys(jobs).map((job) => [job, hasMemory(job)])).toEqual([['GP-JOB', true], ['EXPLORE-JOB', false], ['PLAN-JOB', false], ['LEAN-JOB', false]])
    } finally {
      await rm(project, { recursive: true, force: true })
    }
  })
})
