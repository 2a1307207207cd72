import type { EventName } from '../events/catalog.js'

/**
 * What a mod did to one dispatch: `rewrite` passed a changed event down, `answer` returned its
 * own result without running what is beneath, `deny` refused (an answer or a changed result that
 * denies, drops or decides "deny"), `result` changed what came back from beneath.
 */
export type ProvenanceKind = 'rewrite' | 'answer' | 'deny' | 'result'

export interface ProvenanceRecord {
  mod: string
  event: EventName
  kind: ProvenanceKind
  /** What the record is about: a tool_use_id for tool events, `prompt` for prompt events, else the event name. */
  subject: string
  /** The tool, for tool events. */
  tool?: string
  before: unknown
  after: unknown
  /** ms since the epoch. */
  at: number
}

const PROMPT_EVENTS = new Set<string>(['prompt.submit', 'prompt.mention', 'prompt.attachment', 'prompt.section', 'prompt.compose', 'command.run'])

export function subjectOf(event: EventName, e: unknown): string {
  const p = e as { tool_use_id?: unknown }
  if (typeof p?.tool_use_id === 'string') return p.tool_use_id
  return PROMPT_EVENTS.has(event) ? 'prompt' : event
}

export function isDenial(r: unknown): boolean {
  if (typeof r !== 'object' || r === null) return false
  const o = r as Record<string, unknown>
  return typeof o.deny === 'string' || typeof o.drop === 'string' || o.decision === 'deny'
}

/** Same keys with the same values (===): a copy that changed nothing is not a change. */
export function sameShallow(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  const ka = Object.keys(a)
  if (ka.length !== Object.keys(b).length) return false
  for (const k of ka) if ((a as Record<string, unknown>)[k] !== (b as Record<string, unknown>)[k]) return false
  return true
}
