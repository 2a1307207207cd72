import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages'
import type { ModelRequestInput } from '../../core/events/types.js'
import type { CacheControl, ModelRequest } from '../../core/model/types.js'

/** The Messages API refuses a request with more blocks marked than this. */
export const MAX_BREAKPOINTS = 4

/** Where a breakpoint goes: a tool, a system block, or a block of a message. */
type Spot = { in: 'tools' | 'system'; index: number } | { in: 'messages'; index: number; block: number }

/**
 * Marks `request` with cache breakpoints, most valuable first, within what the API allows
 * (marks another mod already placed count against the four):
 * 1. the last cacheable block of the last message: the whole request, read back by the next round;
 * 2. the end of the system prompt (or of the tools, without one): the prefix every round shares;
 * 3. the last cacheable block of the user message the previous round ended on, so that round's
 *    write is read back even when this round added more blocks than the API looks back over;
 * 4. the end of the stable system sections (those core proposed) when mods' sections follow.
 * Nothing is mutated: what is marked is copied, so the session's history stays unmarked.
 */
export function placeBreakpoints(request: ModelRequest, sections: ModelRequestInput['sections'], ttl: '5m' | '1h'): ModelRequest {
  const budget = MAX_BREAKPOINTS - countMarks(request)
  if (budget <= 0) return request
  const spots = [lastMessageSpot(request.messages), prefixSpot(request), previousRoundSpot(request.messages), stableSystemSpot(request, sections)]
  const chosen: Spot[] = []
  for (const spot of spots) {
    // A block another mod marked keeps its mark (and its TTL); marking it again would spend one of the four for nothing.
    if (spot && !carriesMark(request, spot) && !chosen.some((c) => same(c, spot)) && chosen.length < budget) chosen.push(spot)
  }
  const given = givenTtls(request)
  return chosen.reduce((r, spot) => marked(r, spot, markFor(spot, ttl, given)), request)
}

/** Where a spot is in the order the API reads a request: tools, system, then messages. */
const order = (spot: Spot): [number, number, number] => (spot.in === 'messages' ? [2, spot.index, spot.block] : [spot.in === 'tools' ? 0 : 1, spot.index, 0])
const before = (a: [number, number, number], b: [number, number, number]) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]

/**
 * The API refuses a 1-hour mark after a 5-minute one. Against marks another mod placed with the
 * other TTL, this mark takes theirs where ours would break that order: a 5-minute write where a
 * 1-hour one was asked for, or an hour where a 1-hour mark follows (dearer, but not refused).
 */
function markFor(spot: Spot, ttl: '5m' | '1h', given: { at: [number, number, number]; ttl: '5m' | '1h' }[]): CacheControl {
  const at = order(spot)
  const long = ttl === '1h'
    ? !given.some((g) => g.ttl === '5m' && before(g.at, at) < 0)
    : given.some((g) => g.ttl === '1h' && before(g.at, at) > 0)
  return long ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' }
}

/** The marks already on the request (another mod's), where they are and their TTL. */
function givenTtls(request: ModelRequest): { at: [number, number, number]; ttl: '5m' | '1h' }[] {
  const out: { at: [number, number, number]; ttl: '5m' | '1h' }[] = []
  const note = (b: unknown, at: [number, number, number]) => {
    const cc = typeof b === 'object' && b !== null ? (b as { cache_control?: { ttl?: string } | null }).cache_control : undefined
    if (cc) out.push({ at, ttl: cc.ttl === '1h' ? '1h' : '5m' })
  }
  ;(request.tools ?? []).forEach((t, i) => note(t, [0, i, 0]))
  if (Array.isArray(request.system)) request.system.forEach((b, i) => note(b, [1, i, 0]))
  request.messages.forEach((m, i) => Array.isArray(m.content) && m.content.forEach((b, j) => note(b, [2, i, j])))
  return out
}

/** The blocks the API refuses a breakpoint on: thinking, and text with nothing in it. */
export function isCacheable(block: ContentBlockParam): boolean {
  if (block.type === 'thinking' || block.type === 'redacted_thinking') return false
  return !(block.type === 'text' && block.text === '')
}

function countMarks(request: ModelRequest): number {
  const has = (b: unknown) => typeof b === 'object' && b !== null && 'cache_control' in b && (b as { cache_control?: unknown }).cache_control != null
  let n = (request.tools ?? []).filter(has).length
  if (Array.isArray(request.system)) n += request.system.filter(has).length
  for (const m of request.messages) if (Array.isArray(m.content)) n += m.content.filter(has).length
  return n
}

function blockSpot(messages: readonly MessageParam[], index: number): Spot | undefined {
  const content = messages[index]?.content
  if (typeof content === 'string') return content === '' ? undefined : { in: 'messages', index, block: 0 }
  if (!content) return undefined
  for (let block = content.length - 1; block >= 0; block--) if (isCacheable(content[block]!)) return { in: 'messages', index, block }
  return undefined
}

function lastMessageSpot(messages: readonly MessageParam[]): Spot | undefined {
  return blockSpot(messages, messages.length - 1)
}

/** The user message before the last assistant message: where the previous round's request ended. */
function previousRoundSpot(messages: readonly MessageParam[]): Spot | undefined {
  const assistant = messages.findLastIndex((m) => m.role === 'assistant')
  for (let i = assistant - 1; i >= 0; i--) if (messages[i]!.role === 'user') return blockSpot(messages, i)
  return undefined
}

function prefixSpot(request: ModelRequest): Spot | undefined {
  const system = Array.isArray(request.system) ? request.system : []
  const last = system.findLastIndex((b) => b.text !== '')
  if (last >= 0) return { in: 'system', index: last }
  const tools = request.tools ?? []
  return tools.length > 0 ? { in: 'tools', index: tools.length - 1 } : undefined
}

/** The last of the sections core proposed (a mod's section ids are `mod:name`), when a mod's section follows. */
function stableSystemSpot(request: ModelRequest, sections: ModelRequestInput['sections']): Spot | undefined {
  const system = Array.isArray(request.system) ? request.system : []
  if (sections.length !== system.length) return undefined
  const firstAdded = sections.findIndex((s) => s.id.includes(':'))
  const index = firstAdded - 1
  return index >= 0 && system[index]!.text !== '' ? { in: 'system', index } : undefined
}

function carriesMark(request: ModelRequest, spot: Spot): boolean {
  let block: unknown
  if (spot.in === 'messages') {
    const content = request.messages[spot.index]!.content
    block = Array.isArray(content) ? content[spot.block] : undefined
  } else block = spot.in === 'tools' ? request.tools![spot.index] : (request.system as unknown[])[spot.index]
  return typeof block === 'object' && block !== null && (block as { cache_control?: unknown }).cache_control != null
}

function same(a: Spot, b: Spot): boolean {
  return a.in === b.in && a.index === b.index && (a.in !== 'messages' || b.in !== 'messages' || a.block === b.block)
}

function marked(request: ModelRequest, spot: Spot, mark: CacheControl): ModelRequest {
  if (spot.in === 'tools') return { ...request, tools: request.tools!.map((t, i) => (i === spot.index ? { ...t, cache_control: mark } : t)) }
  if (spot.in !== 'messages') {
    const system = request.system as Exclude<ModelRequest['system'], string | undefined>
    return { ...request, system: system.map((b, i) => (i === spot.index ? { ...b, cache_control: mark } : b)) }
  }
  const { index, block } = spot
  const messages = request.messages.map((m, i): MessageParam => {
    if (i !== index) return m
    // A string is one text block: written out as one, it can carry the mark.
    const content = (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content) as ContentBlockParam[]
    return { ...m, content: content.map((b, j) => (j === block ? { ...b, cache_control: mark } : b)) } as MessageParam
  })
  return { ...request, messages }
}
