import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import agentMod from '../../mods/agent/index.js'
import { makeBox, dump, dumped, writeSettings, cmd, run, withOptions, type Box } from './helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

const WITH_EFFORT = ['PreToolUse', 'PostToolUse', 'PostToolBatch', 'Stop']
const WITHOUT = ['SessionStart', 'UserPromptSubmit', 'SessionEnd']

/** Each event's hooks dump their stdin and, one line per firing, `CLAUDE_EFFORT` (or `unset`). */
async function wire(): Promise<void> {
  await writeFile(join(box.root, 'env.sh'), 'cat > /dev/null; printf "%s\\n" "${CLAUDE_EFFORT-unset}" >> "$1/$2.env"\n')
  const envHook = (e: string) => cmd(`sh ${join(box.root, 'env.sh')} ${box.out} ${e}`)
  await writeSettings(box, Object.fromEntries([...WITH_EFFORT, ...WITHOUT].map((e) => [e, [{ hooks: [cmd(dump(box, e)), envHook(e)] }]])))
}

const envOf = async (e: string) => (await readFile(join(box.out, `${e}.env`), 'utf8').catch(() => '')).split('\n').filter(Boolean)

const SCRIPT = [
  { reply: [{ tool_use: { id: 'toolu_1', name: 'Echo', input: { text: 'hi' } } }] },
  { reply: 'done' },
]

describe('effort in hook inputs', () => {
  it('carries the effective level on tool-use-context events and CLAUDE_EFFORT on every event', async () => {
    await wire()
    const r = await run(box, SCRIPT, 'go', { model: 'claude-opus-4-7', effort: 'low' })
    expect(r.result.terminal_reason).toBe('completed')
    expect(r.requests[0]!.body.output_config).toMatchObject({ effort: 'low' })
    for (const e of WITH_EFFORT) {
      const [input] = await dumped(box, e)
      expect(input, e).toMatchObject({ effort: { level: 'low' }, hook_event_name: e })
      expect(await envOf(e), e).toEqual(['low'])
    }
    for (const e of WITHOUT) {
      const [input] = await dumped(box, e)
      expect(input, e).not.toHaveProperty('effort')
      expect(await envOf(e), e).toEqual(['low'])
    }
  })

  it('reports the level after the clamp to what the model accepts', async () => {
    await wire()
    // Sonnet 4.6 has no xhigh: high is the level sent.
    await run(box, SCRIPT, 'go', { model: 'claude-sonnet-4-6', effort: 'xhigh' })
    const [pre] = await dumped(box, 'PreToolUse')
    expect(pre!.effort).toEqual({ level: 'high' })
    expect(await envOf('Stop')).toEqual(['high'])
  })

  it('is absent, and CLAUDE_EFFORT unset (even one inherited), when the model takes no effort', async () => {
    await wire()
    process.env.CLAUDE_EFFORT = 'max'
    const r = await run(box, SCRIPT, 'go', { model: 'claude-sonnet-4-5', effort: 'low' }).finally(() => { delete process.env.CLAUDE_EFFORT })
    expect(r.result.terminal_reason).toBe('completed')
    expect(r.requests[0]!.body.output_config?.effort).toBeUndefined()
    for (const e of [...WITH_EFFORT, ...WITHOUT]) {
      const [input] = await dumped(box, e)
      expect(input, e).not.toHaveProperty('effort')
      expect(await envOf(e), e).toEqual(['unset'])
    }
  })

  it('is the model\'s default when no effort is asked for: the level its requests are sent', async () => {
    await wire()
    const r = await run(box, SCRIPT, 'go', { model: 'claude-opus-4-7' })
    expect(r.requests[0]!.body.output_config?.effort).toBe('xhigh')
    const [pre] = await dumped(box, 'PreToolUse')
    expect(pre!.effort).toEqual({ level: 'xhigh' })
    expect(await envOf('PreToolUse')).toEqual(['xhigh'])
  })

  it('is a subagent’s own level inside it', async () => {
    await writeSettings(box, Object.fromEntries(['SubagentStop', 'Stop', 'PreToolUse'].map((e) => [e, [{ hooks: [cmd(dump(box, e))] }]])))
    // The subagent runs on a model without effort; the parent's level stands for the parent's events.
    const r = await run(box, [
      { reply: [{ tool_use: { id: 'toolu_a', name: 'Agent', input: { description: 'look', prompt: 'look around', model: 'claude-haiku-4-5' } } }] },
      { reply: 'found it' },
      { reply: 'ok' },
    ], 'go', { model: 'claude-opus-4-7', effort: 'low', mods: [withOptions(agentMod, { home: box.home })] })
    expect(r.result).toMatchObject({ terminal_reason: 'completed', result: 'ok' })
    expect(r.requests[1]!.body.model).toBe('claude-haiku-4-5')
    const [sub] = await dumped(box, 'SubagentStop')
    expect(sub!.agent_id).toEqual(expect.any(String))
    expect(sub).not.toHaveProperty('effort')
    const [stop] = await dumped(box, 'Stop')
    expect(stop!.effort).toEqual({ level: 'low' })
    const [pre] = await dumped(box, 'PreToolUse')
    expect(pre!.effort).toEqual({ level: 'low' })
  })
})
