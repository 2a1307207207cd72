import type { ModApi } from '../../core/mod/api.js'
import type { HookBridge } from './bridge.js'

/**
 * Takes up the frontmatter hooks of the command or skill that has just been invoked, by a person
 * (`/name`) or by the model (the Skill tool): the commands mod publishes it as the invocation.
 */
export function adoptInvocationHooks($: ModApi, b: HookBridge, agentId?: string): void {
  const invocation = $.capability.use('commands')?.invocation(agentId)
  if (!invocation?.hooks) return
  b.addFrontmatterHooks(invocation.file ?? `/${invocation.command}`, invocation.hooks)
}
