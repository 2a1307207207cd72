import { contextWindow } from '../core/model/pricing.js'
import type { Session } from '../core/loop/session.js'

/** How full the context window is, as the last request left it (or an estimate before any). */
export interface ContextUsage {
  model: string
  totalTokens: number
  maxTokens: number
  percentage: number
  /** True when no request was sent yet and the figure is estimated from the history's size. */
  isEstimate: boolean
  categories: { name: string; tokens: number }[]
}

export function getContextUsage(session: Session): ContextUsage {
  const maxTokens = contextWindow(session.model, session.env)
  const u = session.lastUsage
  const categories: { name: string; tokens: number }[] = []
  let totalTokens: number
  if (u) {
    const input = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens
    categories.push({ name: 'Sent with the last request', tokens: input }, { name: 'Last response', tokens: u.output_tokens })
    totalTokens = input + u.output_tokens
  } else {
    totalTokens = session.meter.tokens()
    categories.push({ name: 'Messages (estimated)', tokens: totalTokens })
  }
  categories.push({ name: 'Free space', tokens: Math.max(0, maxTokens - totalTokens) })
  return { model: session.model, totalTokens, maxTokens, percentage: Math.round((totalTokens / maxTokens) * 100), isEstimate: !u, categories }
}
