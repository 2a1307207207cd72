import { resolve } from 'node:path'
import { evaluate } from '../mods/permissions/evaluate.js'
import { ignoredNotice, loadPolicy } from '../mods/permissions/policy.js'
import { permissionsOptions, type PermissionsOptions } from '../mods/permissions/settings-load.js'
import { MODES, type Verdict } from '../mods/permissions/types.js'
import { hookOverRules } from '../mods/shell-hooks/hook-order.js'
import type { HookSource } from '../runtime/loader/types.js'
import { pluginDirSpecs } from './plugin-dirs.js'
import { preToolUse } from './permissions-hooks.js'
import type { CommandRun, Values } from './command.js'
import { loadForReview } from './load-args.js'
import type { Io } from './io.js'
import { splitRuleList } from './permissions-rule-list.js'
import { usageError } from './usage-error.js'
import { describeError } from '../core/errors.js'

/** A verdict as shown: the rules' (with the source of the deciding rule), or one a hook decided. */
type Shown = Omit<Verdict, 'decision'> & { decision: Verdict['decision'] | 'defer'; hook?: string }

/**
 * `modloop permissions check <Tool> '<json input>'`: the verdict a call would get, and the hook or
 * rule that decided it. As in a session, the PreToolUse hooks run first (the settings files',
 * `--settings`' and the distribution's): a hook's deny is final, its new input is what the rules
 * see, and its allow, ask or defer meets the rules' verdict as the shell-hooks mod orders them.
 * Settings are loaded as a session loads them: the user, project, local and managed settings
 * files, the distribution's options for the permissions mod, the workspace's trust, and the flags
 * given here (`--mode`, `--allowedTools`, `--settings`, …) standing in for the launch flags.
 */
export const permissionsCheck: CommandRun = async ({ values, positionals, io }) => {
  const [tool, json = '{}'] = positionals as [string, string | undefined]
  let input: Record<string, unknown>
  try {
    input = JSON.parse(json)
  } catch (err) {
    throw usageError(`the tool input must be a JSON object, e.g. '{"command":"npm test"}' (${describeError(err)})`)
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw usageError('the tool input must be a JSON object')
  const mode = typeof values.mode === 'string' ? values.mode : undefined
  if (mode !== undefined && !(MODES as readonly string[]).includes(mode)) throw usageError(`--mode must be one of ${MODES.join(', ')}`)
  const cwd = resolve(io.cwd, typeof values.cwd === 'string' ? values.cwd : '.')
  const dist = await distribution(values, io, cwd)
  const list = (key: string) => (Array.isArray(values[key]) ? (values[key] as unknown[]).map(String) : [])
  const settings = list('settings')
  // The launch options under query()'s names, as the permissions mod reads them.
  const flags = {
    allowedTools: splitRuleList(list('allowedTools')), disallowedTools: splitRuleList(list('disallowedTools')),
    ...(mode ? { permissionMode: mode } : {}), additionalDirectories: list('add-dir'),
    trustWorkspace: values['trust-workspace'] === true,
    settings,
  }
  const policy = await loadPolicy({ cwd, options: dist.permissions, flags, env: io.env })
  const hooks = dist.shellHooks === null
    ? { problems: [] }
    : await preToolUse({ cwd, tool, input, mode: policy.mode, modOptions: dist.shellHooks, configHooks: dist.hooks, settings, env: io.env })
  const hook = hooks.verdict
  const checked = hook?.updatedInput ?? input
  const rules = hook?.decision === 'deny' ? undefined : await evaluate(policy, tool, checked)
  const verdict: Shown = rules ? (hookOverRules(hook?.pending, rules) ?? rules) : { decision: 'deny', reason: hook!.reason ?? `${hook!.hook.name} hook denied this call`, hook: hook!.hook.name }
  // The rules decided unless the combination named the hook.
  const byHook = verdict.hook !== undefined
  if (values.json === true) {
    const out = {
      tool, input, ...(checked !== input ? { updatedInput: checked } : {}), ...verdict, ...(byHook ? { hook: hook!.hook } : {}),
      mode: policy.mode, trusted: policy.trusted, ignored: policy.ignored, warnings: [...policy.warnings, ...hooks.problems],
    }
    io.stdout.write(`${JSON.stringify(out, null, 2)}\n`)
    return 0
  }
  for (const warning of [...policy.warnings, ...hooks.problems]) io.stderr.write(`modloop: warning: ${warning}\n`)
  if (policy.ignored.length > 0) io.stderr.write(`modloop: warning: ${ignoredNotice(cwd, policy.ignored)}\n`)
  const rule = byHook
    ? '(none: the PreToolUse hook decided)'
    : verdict.rule
      ? `${verdict.rule}${verdict.source ? ` (from ${verdict.source})` : ''}`
      : '(none: no rule matched, so the call would go to the prompt)'
  io.stdout.write([
    `decision: ${verdict.decision}`,
    ...(byHook ? [`hook: ${hook!.hook.name} (${hook!.hook.label}: ${hook!.hook.file})`] : []),
    `rule: ${rule}`,
    ...(verdict.reason ? [`reason: ${verdict.reason.trimEnd()}`] : []),
    ...(checked !== input ? [`input after the hooks: ${JSON.stringify(checked)}`] : []),
    `mode: ${policy.mode}`,
    `workspace: ${cwd} (${policy.trusted ? 'trusted' : 'not trusted'})`,
    '',
  ].join('\n'))
  return 0
}

/**
 * What the distribution sets for the permissions and shell-hooks mods (`shellHooks` null when it
 * does not load that mod, so no settings hook would run), and its own hooks.
 */
async function distribution(values: Values, io: Io, cwd: string): Promise<{ permissions: PermissionsOptions; shellHooks: unknown; hooks: HookSource[] }> {
  const dist = await loadForReview({
    cwd,
    configPath: typeof values.config === 'string' ? values.config : undefined,
    extraMods: [...(Array.isArray(values.mod) ? values.mod.map(String) : []), ...pluginDirSpecs(values, cwd, io.env)],
  }, values, { ...io, cwd })
  try {
    const loaded = dist.host.get('permissions')
    if (!loaded) io.stderr.write('modloop: note: this distribution does not load the permissions mod, so its sessions allow every call; showing what the mod would decide\n')
    const shellHooks = dist.host.get('shell-hooks')
    return { permissions: permissionsOptions.parse(loaded?.options ?? {}), shellHooks: shellHooks ? shellHooks.options ?? {} : null, hooks: dist.hooks }
  } finally {
    await dist.host.close()
  }
}
