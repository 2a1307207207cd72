import type { ModApi } from '../../core/mod/api.js'
import { tokens } from './cost.js'

interface Usage { context?: { tokens: number; window: number; percent: number } }

/**
 * `/context`: how full the context window is, as the last request left it — what the next request
 * starts from — and how much room is left, on the session's model.
 */
export async function contextText($: ModApi): Promise<string> {
  const u = (await $.session.usage()) as Usage
  const { tokens: used = 0, window = 0, percent = 0 } = u.context ?? {}
  return [
    `Context: ${tokens(used)} of ${tokens(window)} tokens (${percent}%) - ${String($.session.model())}`,
    `Free:    ${tokens(Math.max(0, window - used))} tokens`,
  ].join('\n')
}
