import { resolve } from 'node:path'
import { evaluate } from '../mods/permissions/evaluate.js'
import { ignoredNotice, loadPolicy } from '../mods/permissions/policy.js'
import { permissionsOptions, type PermissionsOptions } from '../mods/permissions/settings-load.js'
import { MODES } from '../mods/permissions/types.js'
import type { CommandRun, Values } from './command.js'
import type { Io } from './io.js'
import { splitRuleList } from './permissions-rule-list.js'
import { usageError } from './usage-error.js'

/**
 * `modloop permissions check <Tool> '<json input>'`: the verdict a call would get, and the rule
 * that decided it. Settings are loaded as a session loads them: the user, project and local
 * settings files, the distribution's options for the permissions mod, the workspace's trust, and
 * the flags given here (`--mode`, `--allowedTools`, …) standing in for the launch flags.
 */
export const permissionsCheck: CommandRun = async ({ values, positionals, io }) => {
  const [tool, json = '{}'] = positionals as [string, string | undefined]
  let input: unknown
  try {
    input = JSON.parse(json)
  } catch (err) {
    throw usageError(`the tool input must be a JSON object, e.g. '{"command":"npm test"}' (${(err as Error).message})`)
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw usageError('the tool input must be a JSON object')
  const mode = typeof values.mode === 'string' ? values.mode : undefined
  if (mode !== undefined && !(MODES as readonly string[]).includes(mode)) throw usageError(`--mode must be one of ${MODES.join(', ')}`)
  const cwd = resolve(io.cwd, typeof values.cwd === 'string' ? values.cwd : '.')
  const options = await distributionOptions(values, io, cwd)
  const list = (key: string) => (Array.isArray(values[key]) ? (values[key] as unknown[]).map(String) : [])
  const flags = {
    permissions: {
      allow: splitRuleList(list('allowedTools')), deny: splitRuleList(list('disallowedTools')),
      ...(mode ? { defaultMode: mode } : {}), additionalDirectories: list('add-dir'),
    },
    trustWorkspace: values['trust-workspace'] === true,
  }
  const policy = await loadPolicy({ cwd, options, flags, env: io.env })
  const verdict = await evaluate(policy, tool, input)
  if (values.json === true) {
    const out = { tool, input, ...verdict, mode: policy.mode, trusted: policy.trusted, ignored: policy.ignored, warnings: policy.warnings }
    io.stdout.write(`${JSON.stringify(out, null, 2)}\n`)
    return 0
  }
  for (const warning of policy.warnings) io.stderr.write(`modloop: warning: ${warning}\n`)
  if (policy.ignored.length > 0) io.stderr.write(`modloop: warning: ${ignoredNotice(cwd, policy.ignored)}\n`)
  const rule = verdict.rule
    ? `${verdict.rule}${verdict.source ? ` (from ${verdict.source})` : ''}`
    : '(none: no rule matched, so the call would go to the prompt)'
  io.stdout.write([
    `decision: ${verdict.decision}`,
    `rule: ${rule}`,
    ...(verdict.reason ? [`reason: ${verdict.reason}`] : []),
    `mode: ${policy.mode}`,
    `workspace: ${cwd} (${policy.trusted ? 'trusted' : 'not trusted'})`,
    '',
  ].join('\n'))
  return 0
}

/** The permissions mod's options as the distribution sets them; the defaults when it sets none. */
async function distributionOptions(values: Values, io: Io, cwd: string): Promise<PermissionsOptions> {
  const { loadDistribution } = await import('../core/loader/load-distribution.js')
  const dist = await loadDistribution({
    cwd,
    configPath: typeof values.config === 'string' ? values.config : undefined,
    extraMods: Array.isArray(values.mod) ? values.mod.map(String) : undefined,
  })
  try {
    const loaded = dist.host.get('permissions')
    if (!loaded) io.stderr.write('modloop: note: this distribution does not load the permissions mod, so its sessions allow every call; showing what the mod would decide\n')
    return permissionsOptions.parse(loaded?.options ?? {})
  } finally {
    await dist.host.close()
  }
}
