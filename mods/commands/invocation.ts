import type { On } from '../../core/bus/types.js'
import type { ModApi } from '../../core/mod/api.js'
import { resolveAlias } from '../../core/model/aliases.js'
import { INVOCATION_REF, invocationShape, type Invocation } from '../_shared/invocation.js'
import type { PromptCommand } from './definitions.js'

/** Publishes the command or skill that runs now, with its frontmatter grants and model. */
export function setInvocation($: ModApi, def: PromptCommand): void {
  const invocation: Invocation = {
    command: def.name, source: def.source, file: def.file,
    ...(def.allowedTools ? { allowedTools: def.allowedTools } : {}), ...(def.model ? { model: def.model } : {}),
    ...(def.hooks ? { hooks: def.hooks } : {}),
  }
  $.state.set(INVOCATION_REF, invocation)
}

export function currentInvocation($: ModApi): Invocation | undefined {
  const parsed = invocationShape.safeParse($.state.get(INVOCATION_REF).value)
  return parsed.success ? parsed.data : undefined
}

/**
 * The invocation's lifetime (spec loop-and-sdk §6.2): every new prompt ends the one before (a
 * slash command sets its own after), and while it lasts the main loop's requests go to the
 * frontmatter's `model` (`inherit` keeps the session's). Subagents keep their own model.
 */
export function registerInvocation(on: On): void {
  on('prompt.submit', ($, e, next) => {
    if (currentInvocation($)) $.state.set(INVOCATION_REF, undefined)
    return next(e)
  })

  on('turn.step', async function* ($, e, next) {
    const model = e.agentId ? undefined : currentInvocation($)?.model
    if (!model || model === 'inherit') return yield* next(e)
    const override = `ANTHROPIC_DEFAULT_${model.toUpperCase()}_MODEL`
    return yield* next({ ...e, model: resolveAlias(model, { [override]: $.env.get(override) }) })
  })
}
