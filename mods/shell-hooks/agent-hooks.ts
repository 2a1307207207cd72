import { dirname, resolve } from 'node:path'
import type { ModApi } from '../../core/mod/api.js'
import { trustedExactly } from '../permissions/trust-store.js'
import type { HookBridge } from './bridge.js'
import { describeError } from '../../core/errors.js'

/**
 * Takes up the frontmatter hooks of a subagent's type as the subagent starts (spec §1.8). A
 * project's agent runs them only where its own project folder is trusted: a parent folder's trust
 * and a headless run do not count, as a cloned repository could otherwise run code through them.
 * User-level agents and those of the config are the user's own.
 */
export async function adoptAgentHooks($: ModApi, b: HookBridge, agentId: string, agentType: string): Promise<void> {
  const published = $.capability.use('agentHooks')?.()
  // Own keys only: an agent named `constructor` is no hooks entry of Object.prototype's.
  const def = published && Object.hasOwn(published, agentType) ? published[agentType] : undefined
  if (!def) return
  if (def.scope === 'project') {
    const folder = resolve(dirname(def.file), '..', '..')
    let trusted = false
    try {
      trusted = await trustedExactly(b.init.trustStore, folder)
    } catch (err) {
      return b.warn(`${def.file}: the hooks of agent "${agentType}" did not run: the record of trusted folders cannot be read: ${describeError(err)}`)
    }
    if (!trusted) return b.warn(`${def.file}: the hooks of agent "${agentType}" did not run: the folder ${folder} is not trusted itself (trust it with: modloop trust ${folder})`)
  }
  b.addAgentHooks(agentId, def.file, def.hooks)
}
