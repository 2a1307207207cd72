import type { HookEventName } from '../../hooks-runner/index.js'
import type { ModApi } from '../../core/mod/api.js'

/**
 * The events fired in a tool-use context, whose stdin carries `effort: { level }` (spec §2.1):
 * those raised between a model request and the next, for its tool calls and its answer.
 */
export const EFFORT_EVENTS: ReadonlySet<HookEventName> = new Set<HookEventName>([
  'PreToolUse', 'PermissionRequest', 'PermissionDenied', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'Stop', 'SubagentStop',
])

/**
 * The effective effort level, per agent (the main loop under ''): what its last model request was
 * sent, after clamping to the model (unasked, the model's default) — absent when the model takes
 * no effort. Before any request, the level asked for (`$.config.list()`).
 */
export class EffortTracker {
  private readonly sent = new Map<string, string | null>()

  constructor(private readonly $: ModApi) {}

  /** One model request of the agent (`turn.step`) and the level it carries. */
  note(agentId: string | undefined, level: string | undefined): void {
    this.sent.set(agentId ?? '', level ?? null)
  }

  forget(agentId: string): void {
    this.sent.delete(agentId)
  }

  level(agentId?: string): string | undefined {
    const key = agentId ?? ''
    if (this.sent.has(key)) return this.sent.get(key) ?? undefined
    try {
      const rows = this.$.config.list() as { key: string; value: unknown }[]
      const value = rows.find((r) => r.key === 'effort')?.value
      return typeof value === 'string' ? value : undefined
    } catch {
      // A host without the loop's providers knows no effort.
      return undefined
    }
  }
}

/**
 * The environment a firing's hooks inherit: the session's (query options.env, else this
 * process's), with `CLAUDE_EFFORT` stating the session's own level — never one inherited from a
 * parent agent that started modloop.
 */
export function effortEnv(level: string | undefined, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const { CLAUDE_EFFORT: _inherited, ...env } = base
  return level ? { ...env, CLAUDE_EFFORT: level } : env
}
