import type { On } from '../../core/bus/types.js'
import type { SessionMessage, SessionStartInput } from '../../core/events/types.js'
import { reminder } from '../../core/loop/attach.js'
import type { ModApi } from '../../core/mod/api.js'
import { adoptAgentHooks } from './agent-hooks.js'
import { contexts, envFileDir, HookBridge } from './bridge.js'
import type { ShellHooksOptions } from './options.js'
import { loadSources, type ConfigHooks } from './sources.js'
import { sdkHookSource } from './sdk-hooks.js'
import { applyStartOutputs } from './start-outputs.js'
import { fireSetup, setupRequest } from './setup-hooks.js'
import { HOOK_BUDGET_MS } from './tool-hooks.js'
import { approvedProjectHooks, isProjectLevel, trustStorePath, withoutUnapproved } from './trust.js'
import { describeError } from '../../core/errors.js'
import { costUsd } from '../../core/model/pricing.js'
import { settingsReader } from '../_shared/settings-reader.js'

interface Flags { settings?: string[]; includeHookEvents?: boolean; hooks?: unknown; settingSources?: ('user' | 'project' | 'local')[]; setup?: unknown }

/**
 * The session events: sources load and SessionStart fires once the other mods started (its
 * context waits for the first prompt), after Setup when the launch asked for it; SubagentStart as a subagent starts; PreCompact may veto a
 * compaction, SessionStart (source compact) adds context to the compacted conversation, and
 * PostCompact reports its summary once core accepted it and recorded its boundary; SessionEnd fires within its own shared
 * budget, after which async hooks still running are ended.
 */
export function registerSessionHooks(on: On, opts: ShellHooksOptions, bridges: Map<string, HookBridge>, bridgeOf: ($: ModApi) => HookBridge | undefined): void {
  const postCompact = new WeakMap<HookBridge, { trigger: 'auto' | 'manual'; compact_summary: string }>()
  on('session.start', async ($, e, next) => {
    const result = await next(e)
    let flags: Flags = {}
    try {
      flags = (await $.settings.read({ source: 'flag' })) as Flags
    } catch {
      // A host without launch flags: only the settings files and the config apply.
    }
    const env = $.env.all()
    const fromSdk = sdkHookSource(flags.hooks)
    const config = [...($.capability.use('configHooks') as readonly ConfigHooks[] | undefined ?? []), ...(fromSdk ? [fromSdk] : [])]
    let loaded = await loadSources({
      cwd: e.cwd, home: opts.home, managedDir: opts.managedDir, settingSources: flags.settingSources ?? opts.settingSources, walkUpToGitRoot: opts.walkUpToGitRoot,
      settings: flags.settings, config, env, reader: settingsReader($),
    })
    for (const err of loaded.errors) $.log.warn(`settings hooks: ${err.message}`)
    let approved = new Set<string>()
    const store = opts.trustStore ?? trustStorePath({}, env)
    if (loaded.config.handlers.some(isProjectLevel)) {
      try {
        approved = await approvedProjectHooks(store, e.cwd)
      } catch (err) {
        $.log.warn(`the record of reviewed project hooks cannot be read: ${describeError(err)}`)
      }
    }
    if (opts.skipUnapprovedProjectHooks ?? e.isInteractive) {
      const kept = withoutUnapproved(loaded, approved)
      loaded = kept.loaded
      if (kept.skipped.length > 0) {
        const list = kept.skipped.map((h) => `${h.event}${h.matcher ? ` [${h.matcher}]` : ''} \`${h.name}\``).join(', ')
        $.log.info(`left out ${kept.skipped.length} project hook(s) not approved in this workspace: ${list} (review with: modloop hooks list)`)
      }
    }
    const bridge = new HookBridge($, {
      sessionId: e.sessionId, cwd: e.cwd, transcriptPath: e.transcriptPath, loaded, approved, trustStore: store,
      includeHookEvents: opts.includeHookEvents || flags.includeHookEvents === true, envFileDir: envFileDir(e.transcriptPath),
    })
    bridges.get(e.sessionId)?.close()
    bridges.set(e.sessionId, bridge)
    // Unknown events, bad matchers, switched-off sources: shown, as the settings did not do what they say.
    for (const w of loaded.warnings) bridge.warn(w.message)
    const setup = setupRequest(flags)
    bridge.startContext = await fireSetup(bridge, setup, e.source)
    // A Setup hook may have written a settings file too.
    if (setup && bridge.has('Setup')) settingsReader($)?.forget()
    // `--init-only`: the Setup hooks are all this launch runs.
    bridge.setupOnly = setup?.only === true
    if (bridge.setupOnly) return result
    if (bridge.has('SessionStart')) {
      const r = await bridge.fire('SessionStart', { source: e.source, model: $.session.model(), ...resumeFacts(e, $.session.model()) }, { noPermissionMode: true })
      // A hook may have written a settings file: the mods reading after it read them afresh.
      settingsReader($)?.forget()
      bridge.startContext.push(...contexts(r))
      await applyStartOutputs($, bridge, r, e)
    }
    bridge.instructionsLoaded()
    return result
  }, { budgetMs: HOOK_BUDGET_MS })

  on('agent.spawn', async ($, e, next) => {
    const b = bridgeOf($)
    // The prompt object handed down becomes the subagent's first message; SubagentStart context joins it.
    const spawn = { ...e }
    const r = await next(spawn)
    if (!b || 'deny' in r || !r.agentId) return r
    b.agentTypes.set(r.agentId, spawn.subagentType)
    await adoptAgentHooks($, b, r.agentId, spawn.subagentType)
    if (b.has('SubagentStart')) {
      // No permission_mode on SubagentStart, PreCompact, PostCompact and InstructionsLoaded: Claude Code sends none there.
      const h = await b.fire('SubagentStart', { agent_id: r.agentId, agent_type: spawn.subagentType }, { noPermissionMode: true })
      const added = contexts(h)
      if (added.length > 0) spawn.prompt = [spawn.prompt, ...added].join('\n\n')
    }
    return r
  }, { budgetMs: HOOK_BUDGET_MS })

  on('session.compact', async ($, e, next) => {
    const b = bridgeOf($)
    if (!b || e.agentId) return next(e)
    postCompact.delete(b)
    const trigger = e.trigger === 'auto' ? 'auto' : 'manual'
    if (b.has('PreCompact')) {
      const r = await b.fire('PreCompact', { trigger, custom_instructions: e.instructions ?? null }, { signal: next.signal, noPermissionMode: true })
      if (r.blocked) return { skip: `${r.hookName} hook blocked compaction: ${r.blockReason ?? ''}` }
    }
    const result = await next(e)
    if (!('messages' in result)) return result
    // Core may still reject the answer: PostCompact waits for the boundary it records.
    if (b.has('PostCompact')) postCompact.set(b, { trigger, compact_summary: result.summary ?? summaryOf(result.messages) })
    if (!b.has('SessionStart')) return result
    // The compacted conversation starts afresh: SessionStart (source compact) context opens it.
    const r = await b.fire('SessionStart', { source: 'compact', model: $.session.model(), ...(b.title !== undefined ? { session_title: b.title } : {}) }, { noPermissionMode: true })
    await applyStartOutputs($, b, r, { source: 'compact' })
    const added = contexts(r)
    const [first, ...rest] = result.messages
    if (added.length === 0 || !first) return result
    const blocks = typeof first.content === 'string' ? [{ type: 'text', text: first.content }] : Array.isArray(first.content) ? first.content : []
    return { ...result, messages: [{ ...first, content: [...blocks, ...added.map((t) => ({ type: 'text', text: reminder(t) }))] }, ...rest] }
  }, { budgetMs: HOOK_BUDGET_MS })

  // PostCompact fires once the compaction stands: its compact_boundary is recorded; a failed one clears it.
  on('session.message', async ($, e, next) => {
    const result = await next(e)
    const m = e.message
    if (m.type !== 'system' || e.agentId || (m.subtype !== 'compact_boundary' && m.subtype !== 'status')) return result
    const b = bridgeOf($)
    const post = b && postCompact.get(b)
    if (!post) return result
    if (m.subtype === 'status' && m.compact_result !== 'failed') return result
    postCompact.delete(b)
    if (m.subtype === 'compact_boundary') await b.fire('PostCompact', post, { noPermissionMode: true })
    return result
  }, { budgetMs: HOOK_BUDGET_MS })

  on('session.end', async ($, e, next) => {
    const b = bridges.get(e.sessionId)
    if (b) {
      bridges.delete(e.sessionId)
      if (b.has('SessionEnd') && !b.setupOnly) await b.fire('SessionEnd', { reason: e.reason }, { noPermissionMode: true })
      await b.close()
    }
    return next(e)
  }, { budgetMs: sessionEndRoomMs(process.env) })
}

/**
 * SessionEnd hooks share a budget the runner enforces (spec §4.4: 1.5 s, raised by settings
 * timeouts up to 60 s, or CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS), killing the hooks it cuts. The
 * handler declares room for the largest such budget and that kill, so core does not end it first.
 */
function sessionEndRoomMs(env: NodeJS.ProcessEnv): number {
  const fromEnv = Number(env.CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS)
  return Math.max(60_000, Number.isFinite(fromEnv) ? fromEnv : 0) + SESSION_END_KILL_MS
}

// The runner's SIGTERM grace and its wait after SIGKILL, with a margin.
const SESSION_END_KILL_MS = 3_000

// A compaction that gave no `summary`: its first message's text stands for it.
function summaryOf(messages: readonly SessionMessage[]): string {
  const first = messages[0]
  if (!first) return ''
  if (typeof first.content === 'string') return first.content
  return Array.isArray(first.content) ? first.content.map((b: { text?: unknown }) => (typeof b.text === 'string' ? b.text : '')).join('') : ''
}

// The prompt cache's lifetime: past it, the first request of a resumed session writes its context again.
const CACHE_TTL_S = 300

/**
 * What a resumed or forked session's SessionStart adds (spec settings-hooks §2.3, as Claude Code
 * sends them): how long since the transcript's last response, its context's tokens, whether the
 * prompt cache has likely expired since, and what writing that context to the cache again costs.
 */
function resumeFacts(e: SessionStartInput, model: string): Record<string, unknown> {
  const last = e.resumedFrom?.lastResponse
  if (!last || (e.source !== 'resume' && e.source !== 'fork')) return {}
  const seconds = Math.max(0, Math.round((Date.now() - last.atMs) / 1000))
  return {
    seconds_since_last_response: seconds, context_tokens: last.contextTokens, prompt_cache_likely_expired: seconds > CACHE_TTL_S,
    estimated_cache_write_usd: costUsd(model, { cache_creation_input_tokens: last.contextTokens }),
  }
}
