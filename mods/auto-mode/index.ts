import { z } from 'zod'
import type { ModApi } from '../../core/mod/api.js'
import { defineMod } from '../../core/mod/define.js'
import { join } from 'node:path'
import { classify } from './classifier.js'
import { ASK_USER_TOOL } from '../ask-user/name.js'
import { builtinOptions } from '../_shared/builtin-options.js'

const options = builtinOptions('auto-mode', () => z.object({
  /** The classifier model (alias or id); default: the small fast model. */
  model: z.string().min(1).optional(),
  /** Extra rules for the classifier, in plain words (e.g. "never push to a remote"). */
  instructions: z.string().optional(),
  maxTokens: z.number().int().min(16).max(4_096).default(256),
  /** How long one classification may take. */
  timeoutMs: z.number().int().min(1_000).default(60_000),
  /**
   * Whether asks about writes to protected paths (settings, git, tool configuration) go to the
   * classifier; `false` leaves them to the person or the permission handler, as Claude Code's
   * restricted mode does.
   */
  classifyProtectedPaths: z.boolean().default(true),
  /** The user's home, whose `.claude/settings.json` holds the `autoMode` rules (default: CLAUDE_CONFIG_DIR, else the OS home). */
  home: z.string().optional(),
}))

/**
 * The `auto` permission mode: when the permission check would ask, a classifier model
 * ($.model.complete) decides instead. Its reason goes into the verdict, so a refusal reads it
 * and `permission_denials` records the call. Undecided (no reply, no valid verdict), the ask
 * stands and goes to canUseTool as in default mode. The classifier may refuse but never approve
 * a call a hook asked about (this handler wraps the shell-hooks mod's to see that the ask was a
 * hook's), and a `$.tool.check` query (no tool_use_id) is never classified. What answers an ask
 * before the approver (PermissionRequest hooks, the permission_prompt notification) is raised
 * on `permission.ask`, after tool.check: it hears only of the asks the classifier left standing.
 * In any other mode the mod does nothing (an MCP server's pin, Query.setMcpPermissionModeOverride,
 * can put its calls in auto mode or take them out of it: see modeOf).
 */
export default defineMod({
  name: 'auto-mode',
  description: 'The auto permission mode: a classifier model decides what would need approval',
  options,
  uses: { permissionMode: 'optional' },
  register(on, opts) {
    on('tool.check', async ($, e, next) => {
      const verdict = await next(e)
      // The user's answers to AskUserQuestion are not the classifier's to give.
      if (verdict.decision !== 'ask' || !e.tool_use_id || e.tool === ASK_USER_TOOL || (await modeOf($, e.tool)) !== 'auto') return verdict
      if (!opts.classifyProtectedPaths && verdict.rule === PROTECTED_PATH) return verdict
      const signal = AbortSignal.any([next.signal, AbortSignal.timeout(opts.timeoutMs)])
      // Read at each classification, as the user may edit the rules while a session runs; loaded only in auto mode.
      const [{ rulesInUse, userAutoMode }, { claudeDir }] = await Promise.all([import('./rules.js'), import('../permissions/settings-sources.js')])
      const rules = rulesInUse(await userAutoMode(join(claudeDir({ home: opts.home }, $.env.all()), 'settings.json')))
      const ruling = await classify($, opts, { tool: e.tool, input: e.input, cwd: $.session.cwd() as string, why: verdict.reason }, rules, signal)
      if (ruling.decision === 'deny') return { decision: 'deny', rule: '[mode:auto]', reason: `The auto mode classifier refused this ${e.tool} call: ${ruling.reason}` }
      if (ruling.decision === 'allow' && !verdict.hook) return { decision: 'allow', rule: '[mode:auto]', reason: `The auto mode classifier approved: ${ruling.reason}` }
      const why = ruling.decision === 'allow' ? 'a hook asked, so the classifier cannot approve it' : ruling.reason
      return { ...verdict, reason: `${verdict.reason ? `${verdict.reason}; ` : ''}auto mode: ${why}` }
    }, { before: ['permissions', 'shell-hooks'], budgetMs: opts.timeoutMs + 1_000 })
  },
})

// The rule the permissions mod's verdict names for a write to a protected path.
const PROTECTED_PATH = '[protected-path]'

/**
 * The mode a call of `tool` is decided under, as the owner of modes (the `permissionMode`
 * capability) answers: an MCP server pinned to `default` keeps its calls from the classifier, one
 * pinned to `auto` brings them to it under bypassPermissions. Else the launch flags' mode.
 */
async function modeOf($: ModApi, tool: string): Promise<string | undefined> {
  const owner = $.capability.use('permissionMode')
  const owned = owner?.modeFor?.(tool) ?? owner?.mode()
  if (owned) return owned
  try {
    const flags = (await $.settings.read({ source: 'flag' })) as { permissionMode?: string }
    return flags?.permissionMode
  } catch {
    return undefined
  }
}
