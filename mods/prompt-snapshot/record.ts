import type { PromptSection } from '../../core/events/types.js'

/** The system prompt as the conversation's first request composed it, and the model it was composed for. */
export interface Snapshot {
  model: string
  sections: PromptSection[]
}

/**
 * The transcript's attachment: `systemPrompt` holds the sections' texts, as Claude Code's
 * `prompt_snapshot` does; `sections` (their ids and scopes) and `model` are modloop's, so the
 * prompt cache places its breakpoints as it did and a switch of model is seen.
 */
export function toRecord(s: Snapshot): { type: 'prompt_snapshot'; systemPrompt: string[]; sections: { id: string; scope: PromptSection['scope'] }[]; model: string } {
  return { type: 'prompt_snapshot', systemPrompt: s.sections.map((x) => x.text), sections: s.sections.map((x) => ({ id: x.id, scope: x.scope })), model: s.model }
}

/** A record read back; undefined for one this version cannot use (damaged, or not written by modloop), which renders the prompt afresh. */
export function fromRecord(r: Record<string, unknown> | undefined): Snapshot | undefined {
  if (!r || typeof r.model !== 'string' || !Array.isArray(r.systemPrompt) || !Array.isArray(r.sections)) return undefined
  const texts = r.systemPrompt as unknown[]
  const ids = r.sections as { id?: unknown; scope?: unknown }[]
  if (texts.length !== ids.length || texts.length === 0) return undefined
  const sections: PromptSection[] = []
  for (const [i, text] of texts.entries()) {
    const { id, scope } = ids[i] ?? {}
    if (typeof text !== 'string' || typeof id !== 'string' || (scope !== 'shared' && scope !== 'session')) return undefined
    sections.push({ id, text, scope })
  }
  return { model: r.model, sections }
}
