import type { On } from '../../core/bus/types.js'
import type { Behavior, Policy } from './types.js'
import { registerCommands } from '../_shared/register-command.js'

/**
 * `/permissions`: the rules in effect, by behaviour, each with the settings source it came from,
 * then the mode and the working directories — what decides whether a call runs, asks or is denied.
 * Read-only: rules are changed in the settings files (or by answering an ask with "always").
 */
export function registerPermissionsCommand(on: On, policyOf: () => Policy | undefined, mode: () => string): void {
  on('session.start', async ($, e, next) => {
    const r = await next(e)
    await registerCommands($, [{ name: 'permissions', description: 'List the permission rules in effect and where each comes from, the mode and the working directories', kind: 'local' }])
    return r
  })

  on('command.run', { command: 'permissions' }, () => ({ output: permissionsText(policyOf(), mode()) }))
}

const TITLES: Record<Behavior, string> = { allow: 'Allow', ask: 'Ask', deny: 'Deny' }

function permissionsText(policy: Policy | undefined, mode: string): string {
  if (!policy) return `Permission mode: ${mode}\nThe permission settings are not loaded, so every call asks.`
  const width = Math.max(0, ...policy.rules.map((r) => r.text.length)) + 2
  const groups = (['allow', 'ask', 'deny'] as const).flatMap((behavior) => {
    const rules = policy.rules.filter((r) => r.behavior === behavior)
    return rules.length === 0 ? [`${TITLES[behavior]}: none`] : [`${TITLES[behavior]} (${rules.length}):`, ...rules.map((r) => `  ${r.text.padEnd(width)}${r.source.label}`)]
  })
  const ignored = policy.ignored.length === 0 ? [] : [`Ignored, as this workspace is not trusted: ${policy.ignored.map((i) => `${i.entry} (${i.source})`).join('; ')}`]
  return [`Permission mode: ${mode}`, ...groups, `Working directories: ${policy.roots.lexical.join(', ')}`, ...ignored].join('\n')
}
