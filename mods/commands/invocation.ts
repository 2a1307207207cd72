import type { On } from '../../core/bus/types.js'
import { resolveAlias } from '../../core/model/aliases.js'
import type { Invocation } from './api.js'
import type { PromptCommand } from './definitions.js'

/**
 * The command or skill that runs now, held by the commands mod and offered through its capability:
 * the main conversation's, and each subagent's own (a skill a subagent runs is not the parent's).
 */
export class RunningInvocation {
  private main: Invocation | undefined
  private readonly agents = new Map<string, Invocation>()

  /** The main conversation's, or with `agentId` that subagent's. */
  get(agentId?: string): Invocation | undefined {
    return agentId === undefined ? this.main : this.agents.get(agentId)
  }

  /** Records the command or skill that runs now, with its frontmatter grants and model; a subagent's by its id. */
  set(def: PromptCommand, agentId?: string): void {
    const invocation: Invocation = {
      command: def.name, source: def.source, file: def.file,
      ...(def.allowedTools ? { allowedTools: def.allowedTools } : {}), ...(def.model ? { model: def.model } : {}),
      ...(def.hooks ? { hooks: def.hooks } : {}),
    }
    if (agentId === undefined) this.main = invocation
    else this.agents.set(agentId, invocation)
  }

  /** Puts back what `get` answered before a `set` (a command or skill that was refused after all). */
  restore(previous: Invocation | undefined, agentId?: string): void {
    if (agentId === undefined) this.main = previous
    else if (previous) this.agents.set(agentId, previous)
    else this.agents.delete(agentId)
  }

  clear(): void {
    this.main = undefined
    this.agents.clear()
  }
}

/**
 * The invocation's lifetime (spec loop-and-sdk §6.2): every new prompt ends the one before (a
 * slash command sets its own after), and while it lasts the main loop's requests go to the
 * frontmatter's `model` (`inherit` keeps the session's). Subagents keep their own model, also
 * through a skill one of them runs.
 */
export function registerInvocation(on: On, running: RunningInvocation): void {
  on('prompt.submit', ($, e, next) => {
    running.clear()
    return next(e)
  })

  on('turn.step', async function* ($, e, next) {
    const model = e.agentId ? undefined : running.get()?.model
    if (!model || model === 'inherit') return yield* next(e)
    const override = `ANTHROPIC_DEFAULT_${model.toUpperCase()}_MODEL`
    return yield* next({ ...e, model: resolveAlias(model, { [override]: $.env.get(override) }) })
  })
}
