import { describe, expect, it } from 'vitest'
import { defaultTimeoutSeconds, HOOK_EVENTS, type HandlerType, type HookEventName, type LlmHookRequest, type McpHookRequest } from '../../hooks-runner/index.js'
import { cmd, fire, group, json, preToolUse } from './helpers.js'

const TYPES: HandlerType[] = ['command', 'http', 'mcp_tool', 'prompt', 'agent']

// Spec §4.4: command/http/mcp_tool 600 s, prompt 30 s, agent 60 s; UserPromptSubmit lowers the first
// three to 30 s, MessageDisplay to 10 s, and Pre/PostModelSwitch to 30 s.
const LOWERED: Partial<Record<HookEventName, number>> = { UserPromptSubmit: 30, MessageDisplay: 10, PreModelSwitch: 30, PostModelSwitch: 30 }

describe('default timeouts by handler type and event', () => {
  it('follow the table for every event and type', () => {
    for (const event of HOOK_EVENTS) {
      const row = Object.fromEntries(TYPES.map((t) => [t, defaultTimeoutSeconds(event, t)]))
      const tool = LOWERED[event] ?? 600
      expect(row, event).toEqual({ command: tool, http: tool, mcp_tool: tool, prompt: 30, agent: 60 })
    }
  })

  it('are what a run gives prompt, agent and mcp_tool hooks, and a handler timeout overrides them', async () => {
    const seen: [string, number][] = []
    const llm = async (r: LlmHookRequest) => { seen.push([`${r.event} ${r.type}`, r.timeoutMs]); return '{"ok": true}' }
    const mcp = async (r: McpHookRequest) => { seen.push([`mcp ${r.tool}`, r.timeoutMs]); return { text: '' } }
    const handlers = [{ type: 'prompt', prompt: 'p' }, { type: 'agent', prompt: 'a' }, { type: 'mcp_tool', server: 's', tool: 't' }]
    await fire('Stop', {}, group('Stop', handlers), { llm, mcp })
    await fire('UserPromptSubmit', { prompt: 'hi' }, group('UserPromptSubmit', [...handlers, { type: 'mcp_tool', server: 's', tool: 'own', timeout: 5 }]), { llm, mcp })
    await fire('MessageDisplay', { delta: 'x' }, group('MessageDisplay', [{ type: 'mcp_tool', server: 's', tool: 'display' }]), { llm, mcp })
    await fire('PreModelSwitch', { to_model: 'claude-haiku-4-5' }, group('PreModelSwitch', [{ type: 'mcp_tool', server: 's', tool: 'switch' }]), { llm, mcp })
    expect(seen.sort()).toEqual([
      ['Stop agent', 60_000], ['Stop prompt', 30_000],
      ['UserPromptSubmit agent', 60_000], ['UserPromptSubmit prompt', 30_000],
      ['mcp display', 10_000], ['mcp own', 5_000], ['mcp switch', 30_000], ['mcp t', 30_000], ['mcp t', 600_000],
    ])
  })
})

describe('a timeout longer than a timer can hold', () => {
  it('is not fired at once: a command hook given 1e12 s (meant as "never") runs to its end and decides', async () => {
    const deny = json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'finished' } })
    const r = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd(`sleep 0.2; ${deny}`, { timeout: 1e12 })]))
    expect(r).toMatchObject({ decision: 'deny', blockReason: 'finished', errors: [] })
  })
})
