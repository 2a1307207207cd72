import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import agentMod from '../../mods/agent/index.js'
import { defineMod } from '../../core/mod/define.js'
import { runScript, toolsMod, assertNoDanglingToolUse } from '../loop/helpers.js'
import { systemText } from '../helpers/system-text.js'

let cwd: string
beforeAll(async () => {
  cwd = await realpath(await mkdtemp(join(tmpdir(), 'modloop-agent-')))
  await mkdir(join(cwd, '.claude', 'agents'), { recursive: true })
  await writeFile(join(cwd, '.claude', 'agents', 'echoer.md'), '---\nname: echoer\ndescription: Echoes things\ntools: Echo\nmodel: claude-haiku-4-5\n---\nYou only echo.\n')
  await writeFile(join(cwd, '.claude', 'agents', 'broken.md'), 'no frontmatter here\n')
})
afterAll(() => rm(cwd, { recursive: true, force: true }))

const agent = (description: string, prompt: string, subagent_type?: string) => ({ tool_use: { name: 'Agent', input: { description, prompt, ...(subagent_type ? { subagent_type } : {}) } } })
const wait = (label: string) => ({ tool_use: { name: 'Wait', input: { ms: 150, label } } })

describe('the Agent tool', () => {
  it('runs two subagents in parallel; their messages carry parent_tool_use_id; the parent gets each report', async () => {
    const log: string[] = []
    const run = await runScript([
      { reply: [agent('task a', 'do a'), agent('task b', 'do b')] },
      { reply: [wait('x')] },
      { reply: [wait('y')] },
      { reply: 'report' },
      { reply: 'report' },
      { reply: 'both done', expect: { toolResults: 2 } },
    ], 'go', { cwd, mods: [toolsMod(log), agentMod] })
    expect(run.result).toMatchObject({ subtype: 'success', result: 'both done' })
    const at = (what: string) => Number(log.find((l) => l.startsWith(what))!.split(' ')[2])
    expect(Math.max(at('start x'), at('start y'))).toBeLessThan(Math.min(at('end x'), at('end y')))
    const parentIds = run.messages.filter((m: any) => m.type === 'assistant' && m.message.content[0].type === 'tool_use' && m.message.content[0].name === 'Agent').map((m: any) => m.message.content[0].id)
    const childMessages = run.messages.filter((m: any) => m.parent_tool_use_id)
    expect(new Set(childMessages.map((m: any) => m.parent_tool_use_id))).toEqual(new Set(parentIds))
    expect(childMessages.some((m) => m.type === 'user')).toBe(true)
    const results = (run.requests.at(-1)!.body as any).messages.at(-1).content
    // Each report is handed back framed as its subagent's output, naming the agent.
    expect(results.map((r: any) => r.content.split('\n').slice(1, 3))).toEqual([['report', '</subagent-report>'], ['report', '</subagent-report>']])
    expect(run.messages.filter((m) => m.type === 'result')).toHaveLength(1)
    assertNoDanglingToolUse(run.requests)
  })

  it('uses .claude/agents definitions: tools restricted, model and prompt from the file', async () => {
    const warnings: string[] = []
    const run = await runScript([
      { reply: [agent('echo', 'echo hi', 'echoer')] },
      { reply: 'echoed', expect: { model: 'claude-haiku-4-5' } },
      { reply: 'ok' },
    ], 'go', { cwd, mods: [toolsMod(), agentMod], log: (l) => warnings.push(l) })
    expect(run.result.result).toBe('ok')
    const child = run.requests[1]!.body as any
    expect(child.tools.map((t: any) => t.name)).toEqual(['Echo'])
    expect(systemText(child)).toBe('You only echo.')
    expect(child.messages[0].content[0].text).toBe('echo hi')
    expect(warnings.join('\n')).toContain('broken.md')
  })

  it('an unknown agent type is an error result listing the types', async () => {
    const run = await runScript([{ reply: [agent('x', 'y', 'nope')] }, { reply: 'ok' }], 'go', { cwd, mods: [toolsMod(), agentMod] })
    expect((run.requests[1]!.body as any).messages[2].content[0].content).toContain('general-purpose')
  })

  it('agent.spawn can refuse or rewrite a spawn; Task is an alias', async () => {
    const policy = defineMod({ name: 'policy', register: (on) => on('agent.spawn', (_$, e, next) => (e.prompt.includes('forbidden') ? { deny: 'not that' } : next({ ...e, prompt: `${e.prompt} (carefully)` }))) })
    const run = await runScript([
      { reply: [agent('a', 'forbidden thing'), { tool_use: { name: 'Task', input: { description: 'b', prompt: 'fine thing' } } }] },
      { reply: 'sub done', expect: { lastUserText: 'fine thing (carefully)' } },
      { reply: 'ok' },
    ], 'go', { cwd, mods: [toolsMod(), agentMod, policy] })
    const results = (run.requests.at(-1)!.body as any).messages[2].content
    expect(results[0]).toMatchObject({ is_error: true, content: 'not that' })
    expect(results[1]).toMatchObject({ content: expect.stringContaining('\nsub done\n</subagent-report>') })
  })

  it('nesting stops at the depth limit: the deepest agent has no Agent tool', async () => {
    const run = await runScript([
      { reply: [agent('1', 'level 1')] },
      { reply: [agent('2', 'level 2')] },
      { reply: 'deepest', expect: { lastUserText: 'level 2' } },
      { reply: 'level 1 done' },
      { reply: 'top done' },
    ], 'go', { cwd, mods: [toolsMod(), agentMod], env: { MODLOOP_MAX_SUBAGENT_SPAWN_DEPTH: '2' } })
    expect(run.result.result).toBe('top done')
    expect((run.requests[1]!.body as any).tools.map((t: any) => t.name)).toContain('Agent')
    expect((run.requests[2]!.body as any).tools.map((t: any) => t.name)).not.toContain('Agent')
  })

  it('subagent cost counts in the parent result', async () => {
    const run = await runScript([{ reply: [agent('a', 'b')] }, { reply: 'r', usage: { input_tokens: 100_000 } }, { reply: 'ok' }], 'go', { cwd, mods: [toolsMod(), agentMod] })
    expect(run.result.total_cost_usd).toBeGreaterThan(0.29)
  })
})
