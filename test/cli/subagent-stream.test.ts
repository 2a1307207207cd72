import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { shapeProblems } from '../helpers/sdk-shapes.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-subagent-stream-')))
  await mkdir(join(dir, '.claude', 'skills', 'forky'), { recursive: true })
  await writeFile(join(dir, '.claude', 'skills', 'forky', 'SKILL.md'), '---\ndescription: Does forked work\ncontext: fork\n---\nFORKSKILL do the work.\n')
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const agent = (id: string, description: string, prompt: string, background = false) =>
  ({ tool_use: { id, name: 'Agent', input: { description, prompt, run_in_background: background } } })
const glob = (id: string) => ({ tool_use: { id, name: 'Glob', input: { pattern: '*.none' } } })

/** The whole stream, a line per message: what it is, whose it is (the Agent call it runs under). */
async function stream(script: unknown[]): Promise<{ lines: string[]; all: Record<string, any>[] }> {
  const r = await runCli(['-p', 'go', '--output-format', 'stream-json', '--verbose'], { script, cwd: dir, env: { HOME: dir } })
  expect(r.code).toBe(0)
  const all = r.out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>)
  expect(shapeProblems(all)).toEqual([])
  const lines = all.map((m) => {
    if (m.type === 'system') return `system:${m.subtype}${m.tool_use_id ? ` ${m.tool_use_id}` : ''}`
    if (m.type === 'result') return `result:${m.subtype}`
    if (m.type === 'tool_progress') return `tool_progress <${m.parent_tool_use_id}>`
    const blocks = m.message.content.map((b: any) => (b.type === 'text' ? `text(${b.text})` : b.type === 'tool_use' ? `tool_use(${b.id})` : `${b.type}(${b.tool_use_id})`))
    return `${m.type}${m.parent_tool_use_id ? ` <${m.parent_tool_use_id}>` : ''}:${blocks.join(',')}`
  })
  return { lines, all }
}

describe('a subagent\'s messages on the stream, line by line as Claude Code prints them', () => {
  it('a foreground subagent\'s prompt comes right after its task_started, as a user message of its own; a task_progress precedes each of its tool calls', async () => {
    const { lines, all } = await stream([
      { reply: [agent('toolu_agent', 'look', 'SUBTASK look around')] },
      { when: { firstUserText: 'SUBTASK' }, reply: [{ text: 'sub text' }, glob('toolu_sub')] },
      { when: { firstUserText: 'SUBTASK' }, reply: 'sub report' },
      { reply: 'main done' },
    ])
    expect(lines).toEqual([
      'system:init',
      'assistant:tool_use(toolu_agent)',
      'system:task_started toolu_agent',
      'user <toolu_agent>:text(SUBTASK look around)',
      'system:task_progress toolu_agent',
      'assistant <toolu_agent>:tool_use(toolu_sub)',
      'user <toolu_agent>:tool_result(toolu_sub)',
      'system:task_updated',
      'system:task_notification toolu_agent',
      'user:tool_result(toolu_agent)',
      'assistant:text(main done)',
      'result:success',
    ])
    const started = all.find((m) => m.subtype === 'task_started')!
    expect(started).toMatchObject({ is_backgrounded: false, spawn_depth: 1, prompt: 'SUBTASK look around' })
    const prompt = all[3]!
    expect(prompt).toEqual({
      type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'SUBTASK look around' }] }, parent_tool_use_id: 'toolu_agent',
      agent_id: started.task_id, subagent_type: 'general-purpose', task_description: 'look', session_id: started.session_id, uuid: expect.any(String),
    })
    // Before each tool call of its, what it is doing now and its counts so far.
    expect(all[4]).toEqual({
      type: 'system', subtype: 'task_progress', task_id: started.task_id, tool_use_id: 'toolu_agent', description: 'Finding *.none', subagent_type: 'general-purpose',
      usage: { total_tokens: expect.any(Number), tool_uses: 1, duration_ms: expect.any(Number) }, last_tool_name: 'Glob', session_id: started.session_id, uuid: expect.any(String),
    })
  })

  it('two subagents of one response: each prompt follows its own task_started', async () => {
    const { lines } = await stream([
      { reply: [agent('toolu_a', 'task a', 'SUBA do a'), agent('toolu_b', 'task b', 'SUBB do b')] },
      { when: { firstUserText: 'SUBA' }, reply: 'report a' },
      { when: { firstUserText: 'SUBB' }, reply: 'report b', delayMs: 100 },
      { reply: 'main done' },
    ])
    expect(lines.slice(0, 7)).toEqual([
      'system:init',
      'assistant:tool_use(toolu_a)',
      'system:task_started toolu_a',
      'user <toolu_a>:text(SUBA do a)',
      'assistant:tool_use(toolu_b)',
      'system:task_started toolu_b',
      'user <toolu_b>:text(SUBB do b)',
    ])
  })

  it('a background subagent\'s prompt is not shown', async () => {
    const { lines } = await stream([
      { reply: [agent('toolu_agent', 'look', 'SUBTASK look around', true)] },
      { when: { firstUserText: 'SUBTASK' }, reply: 'sub report', delayMs: 100 },
      { reply: 'main waits' },
      { reply: 'main got it' },
    ])
    expect(lines.filter((l) => l.startsWith('user <toolu_agent>'))).toEqual([])
    expect(lines.filter((l) => l.includes('toolu_agent'))).toEqual([
      'assistant:tool_use(toolu_agent)',
      'system:task_started toolu_agent',
      'user:tool_result(toolu_agent)',
      'assistant <toolu_agent>:text(sub report)',
      'system:task_notification toolu_agent',
    ])
  })

  it('a context: fork skill runs in the foreground as part of its Skill call: an ambient task, no progress or update, its messages under the skill\'s description; its result names the tools it used', async () => {
    const { lines, all } = await stream([
      { reply: [{ tool_use: { id: 'toolu_skill', name: 'Skill', input: { skill: 'forky' } } }] },
      { when: { firstUserText: 'FORKSKILL' }, reply: [glob('toolu_sub')] },
      { when: { firstUserText: 'FORKSKILL' }, reply: 'fork report' },
      { reply: 'main done' },
    ])
    expect(lines).toEqual([
      'system:init',
      'assistant:tool_use(toolu_skill)',
      'system:task_started toolu_skill',
      `user <toolu_skill>:text(Base directory for this skill: ${dir}/.claude/skills/forky\n\nFORKSKILL do the work.)`,
      'assistant <toolu_skill>:tool_use(toolu_sub)',
      'user <toolu_skill>:tool_result(toolu_sub)',
      'system:task_notification toolu_skill',
      'user:tool_result(toolu_skill)',
      'assistant:text(main done)',
      'result:success',
    ])
    expect(all.find((m) => m.subtype === 'task_started')).toMatchObject({ is_backgrounded: false, description: '/forky', skip_transcript: true, ambient: true })
    const end = all.find((m) => m.subtype === 'task_notification')!
    expect(end).toMatchObject({ status: 'completed', summary: '/forky', skip_transcript: true, ambient: true })
    expect(end).not.toHaveProperty('usage')
    expect(all.filter((m) => m.parent_tool_use_id === 'toolu_skill').map((m) => m.task_description)).toEqual(['Does forked work', 'Does forked work', 'Does forked work'])
    // The model reads first which tools the subagent used; the result names the subagent.
    const line = '<tools-used-before-summary>Glob</tools-used-before-summary>'
    expect(all.at(-3)!.message.content[0].content).toBe(`${line}\nSkill "forky" completed (forked execution).\n\nResult:\nfork report`)
    expect(all.at(-3)!.tool_use_result).toEqual({ success: true, commandName: 'forky', status: 'forked', agentId: end.task_id, result: 'fork report', toolsUsedLine: line })
  })

  it('a foreground subagent\'s request retry is progress of its Agent call, not an api_retry of the main conversation; a background one\'s is not shown', async () => {
    const { lines, all } = await stream([
      { reply: [agent('toolu_agent', 'retry', 'SUBTASK retry')] },
      { when: { firstUserText: 'SUBTASK' }, error: { status: 500, message: 'boom' } },
      { when: { firstUserText: 'SUBTASK' }, reply: 'sub report' },
      { reply: 'main done' },
    ])
    expect(lines).toEqual([
      'system:init',
      'assistant:tool_use(toolu_agent)',
      'system:task_started toolu_agent',
      'user <toolu_agent>:text(SUBTASK retry)',
      'tool_progress <toolu_agent>',
      'tool_progress <toolu_agent>',
      'system:task_updated',
      'system:task_notification toolu_agent',
      'user:tool_result(toolu_agent)',
      'assistant:text(main done)',
      'result:success',
    ])
    const agentId = all.find((m) => m.subtype === 'task_started')!.task_id
    const base = { type: 'tool_progress', tool_use_id: 'toolu_agent', tool_name: 'Agent', parent_tool_use_id: 'toolu_agent', elapsed_time_seconds: 0, subagent_type: 'general-purpose' }
    expect(all[4]).toMatchObject({ ...base, subagent_retry: { agent_id: agentId, attempt: 1, max_retries: 10, error_status: 500, error_category: 'server_error' } })
    expect(all[5]).toEqual({ ...base, uuid: expect.any(String), session_id: all[0]!.session_id })
    const background = await stream([
      { reply: [agent('toolu_agent', 'retry', 'SUBTASK retry', true)] },
      { when: { firstUserText: 'SUBTASK' }, error: { status: 500, message: 'boom' } },
      { when: { firstUserText: 'SUBTASK' }, reply: 'sub report' },
      { reply: 'main waits' },
      { reply: 'main got it' },
    ])
    expect(background.lines.filter((l) => l.startsWith('tool_progress') || l.includes('api_retry'))).toEqual([])
  })

  it('a subagent\'s own subagent is announced one level deeper', async () => {
    const { all } = await stream([
      { reply: [agent('toolu_outer', 'outer', 'OUTER go')] },
      { when: { firstUserText: 'OUTER' }, reply: [agent('toolu_inner', 'inner', 'INNER go')] },
      { when: { firstUserText: 'INNER' }, reply: 'inner report' },
      { when: { firstUserText: 'OUTER' }, reply: 'outer report' },
      { reply: 'main done' },
    ])
    expect(all.filter((m) => m.subtype === 'task_started').map((m) => [m.tool_use_id, m.spawn_depth])).toEqual([['toolu_outer', 1], ['toolu_inner', 2]])
  })

  it('a finished subagent\'s task_notification carries its report (flagged as one in the background), or its error without usage; its tool results keep tool_use_result only as a failure\'s error text', async () => {
    const read = (id: string, file_path: string) => ({ tool_use: { id, name: 'Read', input: { file_path } } })
    const fg = await stream([
      { reply: [agent('toolu_agent', 'look', 'SUBTASK look around')] },
      { when: { firstUserText: 'SUBTASK' }, reply: [glob('toolu_ok'), read('toolu_bad', join(dir, 'missing.txt'))] },
      { when: { firstUserText: 'SUBTASK' }, reply: 'sub report' },
      { reply: 'main done' },
    ])
    const subResults = fg.all.filter((m) => m.type === 'user' && m.parent_tool_use_id === 'toolu_agent' && m.message.content[0].type === 'tool_result')
    expect(subResults.map((m) => [m.message.content[0].tool_use_id, m.tool_use_result])).toEqual([['toolu_ok', undefined], ['toolu_bad', expect.stringMatching(/^Error: File does not exist/)]])
    expect(fg.all.filter((m) => m.subtype === 'task_notification')).toEqual([{
      type: 'system', subtype: 'task_notification', task_id: expect.any(String), tool_use_id: 'toolu_agent', status: 'completed', output_file: expect.any(String),
      summary: 'sub report', usage: { total_tokens: expect.any(Number), tool_uses: expect.any(Number), duration_ms: expect.any(Number) }, session_id: expect.any(String), uuid: expect.any(String),
    }])
    // The main conversation's own tool results keep their whole result.
    expect(fg.all.find((m) => m.type === 'user' && m.parent_tool_use_id === null)!.tool_use_result).toMatchObject({ status: 'completed' })

    const bg = await stream([
      { reply: [agent('toolu_agent', 'look', 'SUBTASK look around', true)] },
      { when: { firstUserText: 'SUBTASK' }, reply: 'sub report', delayMs: 50 },
      { reply: 'main waits' },
      { reply: 'main done' },
    ])
    expect(bg.all.find((m) => m.subtype === 'task_notification')).toMatchObject({ status: 'completed', summary: 'sub report', summary_is_report: true, usage: { tool_uses: 0 } })

    const failed = await stream([
      { reply: [agent('toolu_agent', 'look', 'SUBTASK look around')] },
      { when: { firstUserText: 'SUBTASK' }, error: { status: 400, type: 'invalid_request_error', message: 'boom bad' } },
      { reply: 'main done' },
    ])
    const note = failed.all.find((m) => m.subtype === 'task_notification')!
    expect(note).toMatchObject({ status: 'failed', summary: 'API Error 400: boom bad' })
    expect(note).not.toHaveProperty('usage')
    expect(note).not.toHaveProperty('summary_is_report')
  })
})
