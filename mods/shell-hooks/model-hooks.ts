import type { On } from '../../core/bus/types.js'
import type { ModApi } from '../../core/mod/api.js'
import { contexts, type HookBridge } from './bridge.js'
import { HOOK_BUDGET_MS } from './tool-hooks.js'

/**
 * The model events. `model.switch` (/model, Query.setModel): PreModelSwitch may refuse the switch
 * (exit 2, block, deny; `ask` is refused too, as nobody can be asked there; a timeout blocks) when
 * it was requested; PostModelSwitch fires after every switch, fallback and resume included, and its
 * context goes with the next request. `message.display`: MessageDisplay's
 * `displayContent` replaces what is shown of an assistant text, never what is recorded.
 */
export function registerModelHooks(on: On, bridgeOf: ($: ModApi) => HookBridge | undefined): void {
  on('model.switch', async ($, e, next) => {
    const b = bridgeOf($)
    if (!b) return next(e)
    const fields = {
      from_model: e.from, to_model: e.to, requested_model: e.requested, source: e.source, context_tokens: e.contextTokens,
      prompt_cache_warm: e.promptCacheWarm, cache_ttl: e.cacheTtl, estimated_cache_write_usd: e.estimatedCacheWriteUsd, pricing: e.pricing,
    }
    // Only a requested switch may be refused; a fallback or a resume is reported after the fact.
    if (b.has('PreModelSwitch') && (e.source === 'command' || e.source === 'sdk')) {
      // No permission_mode: Claude Code sends none on PreModelSwitch.
      const r = await b.fire('PreModelSwitch', fields, { signal: next.signal, noPermissionMode: true })
      const why = r.stop?.reason ?? r.decisionReason ?? r.blockReason
      if (r.stop || r.blocked || r.decision === 'deny') return { deny: `${r.hookName} hook blocked the switch to ${e.to}: ${why || 'no reason given'}` }
      if (r.decision === 'ask') return { deny: `${r.hookName} hook asks before switching to ${e.to}, and nobody can be asked here${why ? `: ${why}` : ''}` }
    }
    const res = await next(e)
    if ('deny' in res || !b.has('PostModelSwitch')) return res
    const r = await b.fire('PostModelSwitch', { ...fields, to_model: res.model })
    const context = contexts(r)
    return context.length > 0 ? { ...res, context: [...(res.context ?? []), ...context] } : res
  }, { budgetMs: HOOK_BUDGET_MS })

  // Handled only once a session has MessageDisplay hooks: while nothing handles message.display,
  // streamed assistant text is passed on as it arrives instead of being held line by line.
  let display: (() => void) | undefined
  on('turn.start', ($, e, next) => {
    if (!display && bridgeOf($)?.has('MessageDisplay')) {
      display = on('message.display', async ($, e, next) => {
        const shown = await next(e)
        const b = bridgeOf($)
        if (e.agentId || !b?.has('MessageDisplay')) return shown
        const r = await b.fire('MessageDisplay', { turn_id: e.turnId, message_id: e.messageId, index: e.index, final: e.final, delta: e.delta }, { quiet: true })
        return r.displayContent !== undefined ? { text: r.displayContent } : shown
      }, { budgetMs: HOOK_BUDGET_MS })
    }
    return next(e)
  })
}
