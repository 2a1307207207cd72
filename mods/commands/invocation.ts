import type { On } from '../../core/bus/types.js'
import { resolveAlias } from '../../core/model/aliases.js'
import type { Invocation } from './api.js'
import type { PromptCommand } from './definitions.js'

/** The command or skill that runs now, held by the commands mod and offered through its capability. */
export class RunningInvocation {
  private current: Invocation | undefined

  get(): Invocation | undefined {
    return this.current
  }

  /** Records the command or skill that runs now, with its frontmatter grants and model. */
  set(def: PromptCommand): void {
    this.current = {
      command: def.name, source: def.source, file: def.file,
      ...(def.allowedTools ? { allowedTools: def.allowedTools } : {}), ...(def.model ? { model: def.model } : {}),
      ...(def.hooks ? { hooks: def.hooks } : {}),
    }
  }

  clear(): void {
    this.current = undefined
  }
}

/**
 * The invocation's lifetime (spec loop-and-sdk §6.2): every new prompt ends the one before (a
 * slash command sets its own after), and while it lasts the main loop's requests go to the
 * frontmatter's `model` (`inherit` keeps the session's). Subagents keep their own model.
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
