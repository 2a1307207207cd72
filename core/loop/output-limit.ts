import { maxOutputTokens, outputTokenCap } from '../model/pricing.js'
import type { Session } from './session.js'

/**
 * The `max_tokens` of the loop's requests to `model`: the session's `maxTokens`, else
 * CLAUDE_CODE_MAX_OUTPUT_TOKENS (a settings env block's included) up to what the model can write,
 * else the model's default, which for most models is below what it can write. A value that is not
 * a positive whole number is ignored, as in Claude Code.
 */
export function outputLimit(session: Session, model: string): number {
  if (session.options.maxTokens !== undefined) return session.options.maxTokens
  const raw = session.env.CLAUDE_CODE_MAX_OUTPUT_TOKENS?.trim()
  const asked = raw && /^\d+$/.test(raw) ? Number(raw) : 0
  return asked > 0 ? Math.min(asked, outputTokenCap(model)) : maxOutputTokens(model)
}
