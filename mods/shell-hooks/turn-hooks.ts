import { uuid } from '../../core/random.js'
import { backgroundTasks } from './background-tasks.js'
import { STAGE, type On } from '../../core/bus/types.js'
import { reminder } from '../../core/loop/attach.js'
import { apiErrorText } from '../../core/loop/ending.js'
import type { ModApi } from '../../core/mod/api.js'
import { subagentTranscriptPath } from '../transcripts/store/paths.js'
import { contexts, type HookBridge } from './bridge.js'
import { adoptInvocationHooks } from './frontmatter-hooks.js'
import { applyTitle } from './start-outputs.js'
import { HOOK_BUDGET_MS } from './tool-hooks.js'
import { describeError } from '../../core/errors.js'

// StopFailure's `error` values (spec §2.19); other model error kinds report as unknown.
const STOP_FAILURE_ERRORS = new Set(['rate_limit', 'overloaded', 'authentication_failed', 'billing_error', 'invalid_request', 'model_not_found', 'server_error'])

const SOURCE_NAMES = { project: 'projectSettings', user: 'userSettings', plugin: 'plugin' } as const

/** UserPromptExpansion's `command_source`: where the command that just expanded was read from, in Claude Code's words. */
function commandSource($: ModApi, command: string): { command_source?: string } {
  const invocation = $.capability.use('commands')?.invocation()
  return invocation?.command === command ? { command_source: SOURCE_NAMES[invocation.source] } : {}
}

/**
 * The prompt and turn events. UserPromptSubmit runs beneath the mods' `prompt.submit` handlers:
 * a block drops the prompt, context goes beside it (with SessionStart's on the first prompt).
 * UserPromptExpansion follows a slash command's expansion. Stop / SubagentStop answer `turn.stop`;
 * StopFailure reports a turn ended by an API error (its output is ignored).
 */
export function registerTurnHooks(on: On, bridgeOf: ($: ModApi) => HookBridge | undefined): void {
  on('prompt.submit', async ($, e, next) => {
    const b = bridgeOf($)
    if (b) b.promptId = uuid()
    // A local command (/compact, /cost) is no prompt for the model: Claude Code raises no UserPromptSubmit for it.
    if (!b || (await isLocalCommand($, e.text))) return next(e)
    const context = [...b.startContext, ...(await b.takeAsync())]
    b.startContext = []
    if (b.has('UserPromptSubmit')) {
      const r = await b.fire('UserPromptSubmit', { prompt: e.text, ...(b.title !== undefined ? { session_title: b.title } : {}) }, { signal: next.signal })
      if (r.sessionTitle !== undefined) applyTitle($, b, r.sessionTitle)
      // A refused prompt is no error to Claude Code (is_error false, -p exits 0); its block message quotes the prompt unless told not to.
      if (r.stop) return { drop: `Operation stopped by hook: ${r.stop.reason ?? `${r.hookName} hook stopped the session`}`, isError: false }
      if (r.blocked) {
        const original = r.suppressOriginalPrompt ? '' : `\n\nOriginal prompt: ${e.text}`
        return { drop: `UserPromptSubmit operation blocked by hook:\n${r.blockReason ?? ''}${original}`, isError: false }
      }
      context.push(...contexts(r))
    }
    const submitted = await next(context.length > 0 ? { ...e, context: [...(e.context ?? []), ...context] } : e)
    b.instructionsLoaded()
    return submitted
  }, { stage: STAGE.last, budgetMs: HOOK_BUDGET_MS })

  // Memory files a prompt's @-mentions pulled in are published after prompt.submit, before the turn starts.
  on('turn.start', ($, e, next) => {
    bridgeOf($)?.instructionsLoaded()
    return next(e)
  })

  on('command.run', async ($, e, next) => {
    const r = await next(e)
    const b = bridgeOf($)
    if (b && !('deny' in r)) adoptInvocationHooks($, b)
    if (!b?.has('UserPromptExpansion') || 'deny' in r || typeof r.prompt !== 'string') return r
    const prompt = `/${e.command}${e.args ? ` ${e.args}` : ''}`
    const h = await b.fire('UserPromptExpansion', { expansion_type: 'slash_command', command_name: e.command, command_args: e.args, ...commandSource($, e.command), prompt }, { signal: next.signal })
    // As UserPromptSubmit's: no error, and the block quotes the command unless told not to.
    if (h.stop) return { deny: `Operation stopped by hook: ${h.stop.reason ?? `${h.hookName} hook stopped the session`}`, isError: false }
    if (h.blocked) {
      const original = h.suppressOriginalPrompt ? '' : `\n\nOriginal prompt: ${prompt}`
      return { deny: `UserPromptExpansion operation blocked by hook:\n${h.blockReason ?? ''}${original}`, isError: false }
    }
    // The prompt was submitted before it expanded, so the context rides in the expanded text.
    const added = contexts(h)
    return added.length > 0 ? { ...r, prompt: [r.prompt, ...added.map(reminder)].join('\n\n') } : r
    // The commands mod answers a custom command without calling next: this handler must wrap it.
  }, { budgetMs: HOOK_BUDGET_MS, before: 'commands' })

  on('turn.stop', async ($, e, next) => {
    const b = bridgeOf($)
    const event = e.agentId ? 'SubagentStop' : 'Stop'
    // An asyncRewake hook that reported (exit 2) wakes the model before the turn would end.
    const woke = b && !e.agentId ? await b.takeAsync(true) : []
    if (woke.length > 0) return { decision: 'continue', reason: woke.join('\n') }
    if (!b?.has(event)) return next(e)
    const agent = b.agentOptions(e.agentId)
    const r = await b.fire(event, {
      stop_hook_active: e.stopHookActive, last_assistant_message: e.answer,
      ...(e.agentId ? { agent_transcript_path: subagentTranscriptPath(b.init.transcriptPath, e.agentId) } : {}),
      // The background tasks running as the turn would end, as the Agent SDK summarizes them.
      background_tasks: backgroundTasks($.task.list()),
      session_crons: [],
    }, { ...agent, signal: next.signal })
    if (r.stop) return { decision: 'halt', reason: r.stop.reason ?? `${r.hookName} hook stopped the session` }
    const feedback = [...(r.blocked ? [r.blockReason ?? ''] : []), ...r.additionalContexts.map((c) => c.text)].filter((t) => t !== '')
    // A subagent reads "Stop hook feedback:" too: Claude Code names SubagentStop's feedback so.
    if (r.blocked || feedback.length > 0) return { decision: 'continue', reason: `Stop hook feedback:\n${feedback.join('\n')}` }
    return next(e)
  }, { budgetMs: HOOK_BUDGET_MS })

  // A turn's API error is seen where it surfaces, in its model request, and reported when the turn ends.
  const failures = new Map<string, { type: string; message: string; status?: number | null }>()
  on('turn.step', async function* ($, e, next) {
    const b = bridgeOf($)
    // The level this request is sent is the effort of the tool calls and the answer it brings.
    b?.effort.note(e.agentId, e.effort)
    const s = next(e)
    if (!b?.has('StopFailure')) return yield* s
    try {
      for await (const chunk of s) yield chunk
      return await s.result
    } catch (err) {
      const { type, status } = err as { type?: unknown; status?: unknown }
      failures.set(e.turnId, { type: typeof type === 'string' ? type : 'unknown', message: describeError(err), status: typeof status === 'number' ? status : null })
      throw err
    }
  })

  on('turn.complete', async ($, e, next) => {
    const failure = failures.get(e.turnId)
    failures.delete(e.turnId)
    const b = bridgeOf($)
    try {
      if (failure && e.reason === 'error' && b?.has('StopFailure')) {
        await b.fire('StopFailure', {
          error: STOP_FAILURE_ERRORS.has(failure.type) ? failure.type : 'unknown', error_details: failure.message,
          // The words the turn's result shows, as Claude Code gives the hook the error it printed.
          last_assistant_message: apiErrorText(failure),
        }, b.agentOptions(e.agentId))
      }
    } finally {
      if (e.agentId) {
        b?.effort.forget(e.agentId)
        // A subagent runs one turn: its frontmatter hooks end with it.
        b?.dropAgentHooks(e.agentId)
      }
    }
    return next(e)
  }, { budgetMs: HOOK_BUDGET_MS })
}

/** Whether the text runs a command its mod registered as `local` (answered without the model). */
async function isLocalCommand($: ModApi, text: string): Promise<boolean> {
  const m = /^\/([A-Za-z0-9_:.-]+)(?:\s|$)/.exec(text.trim())
  if (!m) return false
  const listed = (await $.command.list()) as { name: string; kind?: string }[]
  return listed.some((c) => c.name === m[1] && c.kind === 'local')
}
