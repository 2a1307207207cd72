import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-subagent-text-')))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

// A foreground subagent that thinks, says something, calls a tool, then reports.
const script = [
  { reply: [{ tool_use: { id: 'toolu_agent', name: 'Agent', input: { description: 'look', prompt: 'SUBTASK look around', run_in_background: false } } }] },
  { when: { firstUserText: 'SUBTASK' }, reply: [{ thinking: 'sub thinking', signature: 's' }, { text: 'sub text' }, { tool_use: { name: 'Glob', input: { pattern: '*.none' } } }] },
  { when: { firstUserText: 'SUBTASK' }, reply: 'sub report' },
  { reply: 'main done' },
]

const lines = async (extra: string[]) => {
  const r = await runCli(['-p', 'go', '--output-format', 'stream-json', '--verbose', ...extra], { script, cwd: dir, env: { HOME: dir } })
  expect(r.code).toBe(0)
  const sub = r.out.trim().split('\n').map((l) => JSON.parse(l)).filter((m) => m.parent_tool_use_id === 'toolu_agent')
  return sub.map((m) => `${m.type}:${m.message.content.map((b: { type: string }) => b.type).join(',')}`)
}

describe('a foreground subagent on the stream', () => {
  it('shows only its prompt, tool calls and results by default, as Claude Code does', async () => {
    expect(await lines([])).toEqual(['user:text', 'assistant:tool_use', 'user:tool_result'])
  })

  it('says on each of its messages which subagent it is from, as Claude Code does', async () => {
    const r = await runCli(['-p', 'go', '--output-format', 'stream-json', '--verbose'], { script, cwd: dir, env: { HOME: dir } })
    const all = r.out.trim().split('\n').map((l) => JSON.parse(l))
    const started = all.find((m) => m.subtype === 'task_started')
    const sub = all.filter((m) => m.parent_tool_use_id === 'toolu_agent')
    expect(sub).toHaveLength(3)
    for (const m of sub) expect(m).toMatchObject({ agent_id: started.task_id, subagent_type: 'general-purpose', task_description: 'look' })
    expect(all.filter((m) => m.parent_tool_use_id === null).every((m) => !('agent_id' in m))).toBe(true)
  })

  it('shows its text and thinking too with --forward-subagent-text', async () => {
    expect(await lines(['--forward-subagent-text'])).toEqual(['user:text', 'assistant:thinking', 'assistant:text', 'assistant:tool_use', 'user:tool_result', 'assistant:text'])
  })

  it('--forward-subagent-text is refused on an output other than stream-json, as Claude Code refuses it', async () => {
    const r = await runCli(['-p', 'go', '--forward-subagent-text'], { script, cwd: dir, env: { HOME: dir } })
    expect(r.code).toBe(1)
    expect(r.err).toContain('--forward-subagent-text requires --output-format stream-json')
    expect(r.requests).toHaveLength(0)
  })
})
