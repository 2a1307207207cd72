import type { ModApi } from '../../core/mod/api.js'
import { INVOCATION_REF, invocationShape } from '../_shared/invocation.js'
import type { HookBridge } from './bridge.js'

/**
 * Takes up the frontmatter hooks of the command or skill that has just been invoked, by a person
 * (`/name`) or by the model (the Skill tool): the commands mod publishes it as the invocation.
 */
export function adoptInvocationHooks($: ModApi, b: HookBridge): void {
  const parsed = invocationShape.safeParse($.state.get(INVOCATION_REF).value)
  if (!parsed.success || !parsed.data.hooks) return
  b.addFrontmatterHooks(parsed.data.file ?? `/${parsed.data.command}`, parsed.data.hooks)
}
