import { registerAddDirCommand } from './add-dir-command.js'
import { registerPermissionsCommand } from './permissions-command.js'
import { registerPlanCommand } from './plan-command.js'
import '../_shared/shell-cwd.js'
import '../_shared/bash-read-only.js'
import '../_shared/tasks.js'
import { realpathLoose } from '../_shared/allowed-paths.js'
import { defineMod } from '../../core/mod/define.js'
import type { ModApi } from '../../core/mod/api.js'
import type { PermissionsApi } from './api.js'
import { deniedPaths } from './denied-paths.js'
import { evaluate } from './evaluate.js'
import { invocationGrants } from './invocation-grant.js'
import { persistUpdate, SESSION_LABEL } from './persist.js'
import { settingsReader } from '../_shared/settings-reader.js'
import { flagLayers, launchFlags } from '../_shared/launch-flags.js'
import { ignoredNotice, loadPolicy, setRoots } from './policy.js'
import { coversTool, WATCH_TOOL } from './rule-match.js'
import { claudeDir, permissionsOptions } from './settings-load.js'
import { foldPermissions } from './config-key.js'
import { serverModes } from './server-modes.js'
import { EDIT_TOOLS, READ_TOOLS, TOOL_ALIASES } from './tool-classes.js'
import type { Mode, Policy } from './types.js'
import { describeError } from '../../core/errors.js'
import { EXIT_PLAN_TOOL, planReminder, registerExitPlanMode } from './plan-mode.js'
import { registerEnterPlanMode } from './enter-plan-mode.js'
import { planReminders } from './plan-reminders.js'
import { readOnlyLine } from './read-only-line.js'

export { PLAN_REMINDER } from './plan-mode.js'

export type { PermissionsApi } from './api.js'

/**
 * Permissions: answers tool.check from the rules of every settings source, the permission mode
 * and the workspace's trust; hides tools a bare-name deny rule removes; reminds the model of plan
 * mode, offers ExitPlanMode to leave it and, where someone can approve a plan, EnterPlanMode to enter it. It is the one owner of the permission mode (the
 * `permissionMode` capability core asks): every switch — Query.setPermissionMode, Shift+Tab, an
 * approver's setMode, an approved plan — goes through `switchMode`, which tells the stream.
 * Nothing in core decides permissions: without this mod every call is allowed.
 */
export default defineMod({
  name: 'permissions',
  description: 'Permission rules, modes and workspace trust (tool.check); the EnterPlanMode and ExitPlanMode tools',
  options: permissionsOptions,
  configKeys: { permissions: foldPermissions },
  provides: ['permissions', 'permissionMode', 'bashReadOnly'],
  uses: { commands: 'optional', shellCwd: 'optional', tasks: 'optional', settingsFiles: 'optional', serverStatus: 'optional' },
  register(on, opts, $) {
    let policy: Policy | undefined
    let loadFailure: string | undefined
    let apply: PermissionsApi['persistUpdate'] | undefined
    // A switch through the owner (Query.setPermissionMode, Shift+Tab) outlives a policy reloaded by /clear.
    let switched: Mode | undefined
    // Each workspace's ignored settings are reported once per host, not once per session.
    const reported = new Set<string>()
    // The running command's or skill's allowed-tools, on top of the session's rules; which skills ask.
    const grants = invocationGrants()
    // `cwd`: where the session works now, which EnterWorktree moves ($.session.move): a call's
    // relative paths are judged from there, as the tools resolve them.
    // Directories mods granted the file tools (grantDirectory): they outlive a policy reloaded by /clear.
    const granted = new Set<{ lexical: string; real: string }>()
    const current = async ($: ModApi, p: Policy, agentId?: string, cwd = p.cwd): Promise<Policy> => {
      const commands = $.capability.use('commands')
      const dirs = [...granted]
      return {
        ...(await grants($, p, agentId)), cwd,
        ...(commands ? { skillAsks: (name: string) => commands.skillAsks(name) } : {}),
        ...(dirs.length > 0 ? { granted: { lexical: dirs.map((d) => d.lexical), real: dirs.map((d) => d.real) } } : {}),
      }
    }
    // The mode plan mode was entered from: an approved plan goes back to it.
    let beforePlan: Mode = 'default'
    // What the model has been told of plan mode, and what it is due at the next prompt.
    // The application's own plan-mode workflow (`planModeInstructions`), read with the launch flags.
    let workflow: string | undefined
    const reminders = planReminders(() => planReminder(workflow))
    // ExitPlanMode calls checked in plan mode, so sent to the approver: only these leave it.
    const exitAsks = new Set<string>()
    const modeNow = (): Mode => policy?.mode ?? switched ?? 'default'
    // MCP servers pinned to a narrower mode (Query.setMcpPermissionModeOverride); they outlive a policy reloaded by /clear.
    const pins = serverModes(() => $.capability.use('serverStatus')?.().map((s) => s.name) ?? [])
    const modeFor = (tool: string): Mode => pins.modeFor(tool, modeNow())
    /** The policy a call of `tool` is judged under: its server's pin in place of the session's mode where one applies. */
    const judging = async ($: ModApi, p: Policy, tool: string, agentId?: string, cwd?: string): Promise<Policy> => {
      const judged = await current($, p, agentId, cwd)
      judged.mode = pins.modeFor(tool, judged.mode)
      return judged
    }
    const switchMode = (mode: Mode) => {
      if (mode === 'bypassPermissions' && policy?.bypassDisabledBy) {
        throw new Error(`bypassPermissions is disabled by permissions.disableBypassPermissionsMode in ${policy.bypassDisabledBy}`)
      }
      const from = modeNow()
      switched = mode
      if (policy) policy.mode = mode
      if (mode === 'plan' && from !== 'plan') beforePlan = from
      if (mode === from) return
      // Claude Code's status message: the SDK stream, the ACP editor's mode and the terminal's mode line follow it.
      try {
        $.session.append({ message: { type: 'system', subtype: 'status', status: null, permissionMode: mode } })
      } catch {
        // Before a session starts there is no stream to tell; the session reports its mode as it starts.
      }
    }
    $.capability.provide('permissionMode', { mode: modeNow, setMode: switchMode, modeFor, setServerMode: pins.set })
    $.capability.provide('bashReadOnly', readOnlyLine)
    registerPermissionsCommand(on, () => policy, modeNow)
    registerAddDirCommand(on, () => policy)
    registerPlanCommand(on, { mode: modeNow, setMode: switchMode, reminder: () => reminders.atPrompt(true) })
    $.capability.provide('permissions', {
      persistUpdate: (update) => (apply ? apply(update) : Promise.reject(new Error(`the permission settings are not loaded${loadFailure ? ` (${loadFailure})` : ''}`))),
      check: async (tool, input) => ((await fresh($)) ? evaluate(await judging($, policy!, tool), tool, input) : { decision: 'ask', rule: '[not-loaded]', reason: 'the permission settings are not loaded' }),
      directories: () => policy?.roots.lexical.slice(1) ?? [],
      deniedPaths: (tool) => (policy ? deniedPaths(policy.rules, tool) : undefined),
      grantDirectory: async (dir) => {
        const entry = { lexical: dir, real: await realpathLoose(dir) }
        granted.add(entry)
        return () => void granted.delete(entry)
      },
    })

    // The flag layer's settings the policy was read with: Query.applyFlagSettings adds to it
    // (runtime/flag-settings.ts), and the next check then reads the rules again.
    let readUnder: string | undefined
    let persistCtx: { policy: Policy } | undefined
    const envOf = ($: ModApi) => ({ MODLOOP_HOME: $.env.get('MODLOOP_HOME'), CLAUDE_CONFIG_DIR: $.env.get('CLAUDE_CONFIG_DIR') })
    /** The policy, read again first when the flag layer changed since it was read. */
    const fresh = async ($: ModApi): Promise<Policy | undefined> => {
      if (!policy) return policy
      const flags = await launchFlags($)
      if (!flags) return policy
      const layers = flagLayers(flags)
      if (layers === readUnder) return policy
      readUnder = layers
      await reread($, policy, flags)
      return policy
    }
    /**
     * The rules and directories read again over the session's: the mode stays (unless the settings
     * now keep bypassPermissions off), as do the rules given for this session alone (an approver's
     * `session` updates) and the working directories it has (a reread never takes one away).
     */
    const reread = async ($: ModApi, old: Policy, flags: unknown) => {
      let loaded: Policy
      try {
        loaded = await loadPolicy({ cwd: old.cwd, options: opts, flags, env: envOf($), reader: settingsReader($) })
      } catch (err) {
        $.log.error(`the permission settings could not be read again after the flag settings changed, so the rules stay as they were: ${describeError(err)}`)
        return
      }
      loaded.mode = old.mode === 'bypassPermissions' && loaded.bypassDisabledBy ? 'default' : old.mode
      loaded.rules.push(...old.rules.filter((r) => r.source.label === SESSION_LABEL))
      await setRoots(loaded, [...new Set([...loaded.roots.lexical.slice(1), ...old.roots.lexical.slice(1)])])
      if (old.taskOutput) loaded.taskOutput = old.taskOutput
      for (const warning of loaded.warnings) if (!old.warnings.includes(warning)) $.log.warn(warning)
      policy = loaded
      if (persistCtx) persistCtx.policy = loaded
    }

    on('session.start', async ($, e, next) => {
      const result = await next(e)
      let flags: unknown = {}
      try {
        flags = await $.settings.read({ source: 'flag' })
      } catch (err) {
        $.log.warn(`the launch flags cannot be read (${describeError(err)}); only settings files and options apply`)
      }
      const env = envOf($)
      workflow = planWorkflow($, flags)
      let loaded: Policy
      try {
        loaded = await loadPolicy({ cwd: e.cwd, options: opts, flags, env, reader: settingsReader($) })
      } catch (err) {
        // Without a policy nothing may run unasked: tool.check answers ask until a session loads one.
        policy = undefined
        apply = undefined
        loadFailure = describeError(err)
        $.log.error(`the permission settings could not be loaded, so every call will ask: ${loadFailure}`)
        return result
      }
      if (switched && !(switched === 'bypassPermissions' && loaded.bypassDisabledBy)) loaded.mode = switched
      beforePlan = 'default'
      reminders.reset()
      exitAsks.clear()
      const tasksDir = $.capability.use('tasks')?.(e.sessionId)?.dir
      if (tasksDir) loaded.taskOutput = { lexical: [tasksDir], real: [await realpathLoose(tasksDir)] }
      policy = loaded
      readUnder = flagLayers(flags)
      loadFailure = undefined
      for (const warning of loaded.warnings) $.log.warn(warning)
      if (loaded.ignored.length > 0 && !reported.has(e.cwd)) {
        reported.add(e.cwd)
        $.log.warn(ignoredNotice(e.cwd, loaded.ignored))
      }
      await warnUnknownTools($, loaded)
      const ctx = { policy: loaded, cwd: e.cwd, claudeDir: claudeDir(opts, env), setMode: switchMode }
      persistCtx = ctx
      apply = async (update) => {
        const saved = await persistUpdate(update, ctx)
        // The next reader of that file (a start under way, a /clear) reads what was just written.
        if (saved.file) settingsReader($)?.forget(saved.file)
        return saved
      }
      if (opts.planTools) await registerExitPlanMode($, {
        mode: modeNow, beforePlan: () => beforePlan, setMode: switchMode,
        told: () => reminders.toldEnded(),
        askedInPlan: (id) => exitAsks.delete(id),
      })
      // Without an approver no plan could ever be approved: the model is not offered a way in.
      if (e.canAsk && opts.planTools) await registerEnterPlanMode($, { mode: modeNow, setMode: switchMode, reminded: () => reminders.toldInFull(), reminder: () => planReminder(workflow) })
      return result
    })

    // An approver's "always allow" (canUseTool updatedPermissions): each update applies on its own.
    on('permission.update', async ($, e, next) => {
      for (const update of e.updates) {
        if (!apply) {
          $.log.warn(`a permission update for ${e.tool} was not applied: the permission settings are not loaded`)
          break
        }
        try {
          const { file } = await apply(update)
          if (file) $.log.info(`${file}: saved the permission update given with the approval of ${e.tool}`)
        } catch (err) {
          $.log.warn(`a permission update given with the approval of ${e.tool} was not applied: ${describeError(err)}`)
        }
      }
      return next(e)
    })

    on('tool.check', async ($, e, next) => {
      if (!(await fresh($)) || !policy) return { decision: 'ask', rule: '[not-loaded]', reason: `the permission settings are not loaded${loadFailure ? ` (${loadFailure})` : ''}` }
      // The main agent's Bash calls run where its last `cd` left the shell (a subagent's may run in a worktree of its own).
      const shellDir = (e.tool === 'Bash' || e.tool === WATCH_TOOL) && e.agentId === undefined ? $.capability.use('shellCwd')?.($.session.id() as string) : undefined
      const verdict = await evaluate(await judging($, policy, e.tool, e.agentId, $.session.cwd() as string), e.tool, e.input, shellDir)
      if (e.tool === EXIT_PLAN_TOOL && policy.mode === 'plan' && e.tool_use_id) exitAsks.add(e.tool_use_id)
      const answer = { decision: verdict.decision, ...(verdict.reason ? { reason: verdict.reason } : {}), ...(verdict.rule ? { rule: verdict.rule } : {}) }
      if (answer.decision === 'ask') return { ...answer, ...(verdict.suggestions?.length ? { suggestions: verdict.suggestions } : {}), ...(verdict.blockedPath ? { blockedPath: verdict.blockedPath } : {}) }
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

    // The compacted conversation no longer holds the full reminder: the next prompt in plan mode gets it again.
    on('session.compact', async ($, e, next) => {
      const r = await next(e)
      if ('messages' in r && e.agentId === undefined) reminders.reset()
      return r
    })

    on('prompt.submit', async ($, e, next) => {
      const submitted = await next(e)
      if (!policy || 'drop' in submitted) return submitted
      const reminder = reminders.atPrompt(policy.mode === 'plan')
      return reminder ? { ...submitted, context: [...(submitted.context ?? []), reminder] } : submitted
    })
  },
})

/** The launch flags' `planModeInstructions`: text, or nothing (anything else is reported). */
function planWorkflow($: ModApi, flags: unknown): string | undefined {
  const value = (flags as { planModeInstructions?: unknown } | undefined)?.planModeInstructions
  if (value === undefined) return undefined
  if (typeof value === 'string') return value.trim() || undefined
  $.log.warn(`the planModeInstructions option must be text (got ${typeof value}); plan mode keeps its own instructions`)
  return undefined
}

/**
 * A rule naming a tool this session does not have is probably a typo: say so once per session.
 * Deny rules too — a misspelt deny rule silently lets through what it meant to stop — so a
 * distribution that leaves a tool out writes no deny rule for it (examples/distributions/reviewer).
 */
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
