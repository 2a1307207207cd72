import type { Provider } from '../core/mod/build-api.js'
import { ModloopError } from '../core/errors.js'
import type { Session } from '../core/loop/session.js'
import { compactOnRequest } from '../core/loop/compact.js'
import { moveSession } from '../core/loop/move.js'
import { textBlocks } from '../core/loop/appended.js'
import { uuid } from '../core/loop/messages.js'
import { clearSession } from './clear.js'
import { getContextUsage } from './context-usage.js'

/** The `$.session` methods (and the environment `$.env` reads): facts of the running session. */
export function sessionProviders(session: Session): Record<string, Provider> {
  return {
    'session.id': () => session.id,
    'env.table': () => session.env,
    'session.compact': (mod: string, args?: { instructions?: string; trigger?: 'manual' | 'plugin' }) => compactOnRequest(session, mod, args),
    'session.cwd': () => session.cwd,
    // Where the session opened: a move ($.session.move) does not change it.
    'session.root': () => session.options.cwd,
    'session.move': (_mod: string, args: { cwd: string; context?: string[] }) => moveSession(session, args.cwd, args.context),
    'session.model': () => session.model,
    'session.turns': () => session.userTurns,
    'session.messages': () => structuredClone(session.messages.slice(-4096)),
    'session.version': () => ({ version: session.version }),
    'session.clear': () => clearSession(session.root),
    // Held by the root's tasks, so the wait that bounds theirs bounds it too (runtime/task-wait.ts).
    'session.hold': (mod: string, args: { reason?: unknown; quiet?: unknown }) => session.root.tasks.hold(mod, args?.reason as string, args?.quiet === true),
    // Status-line figures as the mod model names them; rate limits are unknown to a headless runtime.
    // `context` is the main conversation's window as the last request left it (what a status line
    // shows), not the tokens spent so far: those are in `models`.
    // `cost.apiDurationMs`, `models` (tokens and cost by model, as results' modelUsage) and `lines`
    // (what the session's tools changed in files) are modloop additions.
    'session.usage': () => {
      const root = session.root
      const context = getContextUsage(root)
      return {
        startedAt: root.startedAt, rateLimits: [],
        context: { tokens: context.totalTokens, window: context.maxTokens, percent: context.percentage },
        cost: { usd: root.totalCostUsd, apiDurationMs: Math.round(root.apiMs) },
        models: structuredClone(root.modelUsage),
        lines: { ...root.linesChanged },
      }
    },
    // `user`: a hidden user-role row the model reads, from the next request of the main conversation on.
    // `system`: a notice for the caller's stream that the model never reads (informational by default;
    // a modloop reading of the mod model's `system` append), delivered before the next message.
    // `prompt_suggestion`: a guess at the person's next prompt, for the caller's stream alone.
    'session.append': (mod: string, args: { message?: { type?: string; content?: unknown; subtype?: string; [field: string]: unknown } }) => {
      const m = args?.message
      if (m?.type === 'user') {
        const content = textBlocks(m.content)
        if (!content) throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.session.append of a user message needs content: a text, or text blocks that are not empty`, { mod, field: 'content' })
        session.root.appended.push(...content)
        const message = { type: 'user' as const, content, uuid: uuid() }
        return { message, uuid: message.uuid }
      }
      if (m?.type === 'prompt_suggestion') {
        if (typeof m.suggestion !== 'string' || m.suggestion === '') throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.session.append of a prompt_suggestion needs { suggestion }, a text that is not empty`, { mod, field: 'suggestion' })
        const message = session.stamp({ type: 'prompt_suggestion' as const, suggestion: m.suggestion })
        session.post(message)
        return { message, uuid: message.uuid }
      }
      if (m?.type !== 'system') throw new ModloopError('MODLOOP_ERR_UNSUPPORTED', `${mod}: $.session.append takes { message: { type: 'user' | 'system' | 'prompt_suggestion', ... } }`, { mod })
      const { type: _t, subtype, ...fields } = m
      const message = session.stamp({ type: 'system' as const, subtype: typeof subtype === 'string' ? subtype : 'informational', ...fields })
      session.post(message)
      return { message, uuid: message.uuid }
    },
  }
}
