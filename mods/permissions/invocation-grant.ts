import type { ModApi } from '../../core/mod/api.js'
import type { Invocation } from '../commands/api.js'
import { parseRule } from './rule-parse.js'
import type { Policy, Rule } from './types.js'

interface Grant { policy: Policy; invocation: Invocation | undefined; rules: Rule[] }

/**
 * The allow rules a command's or skill's `allowed-tools` grant while it runs: from the moment it
 * is invoked until the next prompt (spec loop-and-sdk §6.2), read from the invocation the commands
 * mod publishes. A project's command file widens access only in a trusted workspace, as its
 * settings do; a user's always. Each grant is compiled once, its problems reported once. A
 * subagent's calls have the main conversation's grant and that of the skill the subagent itself
 * runs; the main conversation's never has a subagent's.
 */
export function invocationGrants() {
  // By agent id, the main conversation's under undefined.
  const grants = new Map<string | undefined, Grant>()
  const rulesOf = async ($: ModApi, policy: Policy, agentId?: string): Promise<Rule[]> => {
    const invocation = $.capability.use('commands')?.invocation(agentId)
    let grant = grants.get(agentId)
    if (grant?.policy !== policy || grant.invocation !== invocation) grants.set(agentId, grant = { policy, invocation, rules: await compile($, policy, invocation) })
    // A subagent without a skill of its own keeps no entry, so the map does not grow with every subagent.
    if (!invocation && agentId !== undefined) grants.delete(agentId)
    return grant.rules
  }
  return async ($: ModApi, policy: Policy, agentId?: string): Promise<Policy> => {
    const rules = [...await rulesOf($, policy), ...(agentId === undefined ? [] : await rulesOf($, policy, agentId))]
    return rules.length === 0 ? policy : { ...policy, rules: [...policy.rules, ...rules] }
  }
}

async function compile($: ModApi, policy: Policy, invocation: Invocation | undefined): Promise<Rule[]> {
  if (!invocation?.allowedTools?.length) return []
  const { command, source: where, file, allowedTools } = invocation
  const label = `the allowed-tools of /${command}${file ? ` (${file})` : ''}`
  if (where === 'project' && !policy.trusted) {
    $.log.warn(`${label} are not granted: this workspace is not trusted, so its commands do not widen access. To honour them, run \`modloop trust ${policy.cwd}\`, or pass --trust-workspace for one run.`)
    return []
  }
  const source = { name: 'command' as const, label, root: policy.cwd, projectLevel: where === 'project' }
  const rules: Rule[] = []
  for (const text of allowedTools) {
    const rule = await parseRule(text, 'allow', source, { cwd: policy.cwd, home: policy.home })
    if (typeof rule === 'string') $.log.warn(`${label}: "${text}" ${rule}; the other entries still apply`)
    else rules.push(rule)
  }
  return rules
}
