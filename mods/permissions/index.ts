import { defineMod } from '../../core/mod/define.js'
import type { ModApi } from '../../core/mod/api.js'
import { evaluate } from './evaluate.js'
import { persistUpdate } from './persist.js'
import { ignoredNotice, loadPolicy } from './policy.js'
import { coversTool } from './rule-match.js'
import { claudeDir, permissionsOptions } from './settings-load.js'
import { EDIT_TOOLS, READ_TOOLS, TOOL_ALIASES } from './tool-classes.js'
import type { Policy, Verdict } from './types.js'

export const PLAN_REMINDER = [
  'Plan mode is on. Research and plan only: read, search and think, but change nothing —',
  'no edits, no writes, no commands that alter files, settings or systems; such tool calls are refused.',
  'When the plan is ready, present it and wait for it to be approved before making any change.',
].join(' ')

/**
 * What the mod offers other mods and the host through `$.state` (`{plugin: 'permissions', key:
 * 'api'}`) once a session started: `persistUpdate` applies a canUseTool `updatedPermissions`
 * entry (see persist.ts), `check` answers a verdict with its deciding rule and source.
 */
export interface PermissionsApi {
  persistUpdate(update: unknown): Promise<{ file?: string }>
  check(tool: string, input: unknown): Promise<Verdict>
  mode(): Policy['mode']
}

/**
 * Permissions: answers tool.check from the rules of every settings source, the permission mode
 * and the workspace's trust; hides tools a bare-name deny rule removes; reminds the model of plan
 * mode. Nothing in core decides permissions: without this mod every call is allowed.
 */
export default defineMod({
  name: 'permissions',
  description: 'Permission rules, modes and workspace trust (tool.check)',
  options: permissionsOptions,
  register(on, opts) {
    let policy: Policy | undefined
    let loadFailure: string | undefined
    // Each workspace's ignored settings are reported once per host, not once per session.
    const reported = new Set<string>()

    on('session.start', async ($, e, next) => {
      const result = await next(e)
      let flags: unknown = {}
      try {
        flags = await $.settings.read({ source: 'flag' })
      } catch (err) {
        $.log.warn(`the launch flags cannot be read (${(err as Error).message}); only settings files and options apply`)
      }
      const env = { MODLOOP_HOME: $.env.get('MODLOOP_HOME'), CLAUDE_CONFIG_DIR: $.env.get('CLAUDE_CONFIG_DIR') }
      let loaded: Policy
      try {
        loaded = await loadPolicy({ cwd: e.cwd, options: opts, flags, env })
      } catch (err) {
        // Without a policy nothing may run unasked: tool.check answers ask until a session loads one.
        policy = undefined
        loadFailure = (err as Error).message
        $.log.error(`the permission settings could not be loaded, so every call will ask: ${loadFailure}`)
        return result
      }
      policy = loaded
      loadFailure = undefined
      for (const warning of loaded.warnings) $.log.warn(warning)
      if (loaded.ignored.length > 0 && !reported.has(e.cwd)) {
        reported.add(e.cwd)
        $.log.warn(ignoredNotice(e.cwd, loaded.ignored))
      }
      await warnUnknownTools($, loaded)
      const ctx = { policy: loaded, cwd: e.cwd, claudeDir: claudeDir(opts, env) }
      const api: PermissionsApi = {
        persistUpdate: (update) => persistUpdate(update, ctx),
        check: (tool, input) => evaluate(loaded, tool, input),
        mode: () => loaded.mode,
      }
      $.state.set({ plugin: $.plugin.name, key: 'api' }, api)
      return result
    })

    on('tool.check', async ($, e, next) => {
      if (!policy) return { decision: 'ask', rule: '[not-loaded]', reason: `the permission settings are not loaded${loadFailure ? ` (${loadFailure})` : ''}` }
      const verdict = await evaluate(policy, e.tool, e.input)
      const answer = { decision: verdict.decision, ...(verdict.reason ? { reason: verdict.reason } : {}), ...(verdict.rule ? { rule: verdict.rule } : {}) }
      if (answer.decision !== 'allow') return answer
      // A mod beneath may still refuse what the rules allow.
      const beneath = await next(e)
      return beneath.decision === 'allow' ? answer : beneath
    }, { failClosed: true })

    on('tool.describe', async ($, e, next) => {
      const described = await next(e)
      const hidden = policy?.rules.some((r) => r.behavior === 'deny' && r.content === undefined && coversTool(r, e.tool))
      return hidden ? { ...described, isHidden: true } : described
    })

    on('prompt.submit', async ($, e, next) => {
      const submitted = await next(e)
      if (policy?.mode !== 'plan' || 'drop' in submitted) return submitted
      return { ...submitted, context: [...(submitted.context ?? []), PLAN_REMINDER] }
    })
  },
})

/** A rule naming a tool this session does not have is probably a typo: say so once per session. */
async function warnUnknownTools($: ModApi, policy: Policy): Promise<void> {
  let names: Set<string>
  try {
    const tools = (await $.tool.list()) as { name: string }[]
    names = new Set(tools.map((t) => t.name))
  } catch {
    return
  }
  for (const rule of policy.rules) {
    const tool = rule.tool.kind === 'name' ? rule.tool.name : undefined
    if (tool === undefined || tool.startsWith('mcp__') || names.has(tool)) continue
    // Read and Edit rules also cover the other reading and editing tools.
    const family = tool === 'Read' ? READ_TOOLS : tool === 'Edit' ? EDIT_TOOLS : undefined
    if (family && [...family].some((t) => names.has(t))) continue
    if (Object.keys(TOOL_ALIASES).some((alias) => TOOL_ALIASES[alias] === tool && names.has(alias))) continue
    $.log.warn(`${rule.source.label}: the ${rule.behavior} rule "${rule.text}" names ${tool}, a tool this session does not have (it has: ${[...names].join(', ') || 'none'})`)
  }
}
