import { createHash } from 'node:crypto'
import { weighedJsonLength } from '../core/model/media-weight.js'
import { estimateJsonTokens } from './model/script-events.js'

/** What a request's input came to: read from the cache, written to it, and neither. */
export interface CacheFigures {
  input_tokens: number
  cache_read_input_tokens: number
  cache_creation_input_tokens: number
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number }
}

type Ttl = '5m' | '1h'
const TTL_MS: Record<Ttl, number> = { '5m': 5 * 60_000, '1h': 60 * 60_000 }
const MAX_BREAKPOINTS = 4
/** The API looks for an earlier hit this many block boundaries back from each breakpoint. */
const LOOKBACK = 20

/** The shortest prefix the API caches, by model: shorter ones are processed without a write. */
export function minimumCacheable(model: string): number {
  const id = model.toLowerCase()
  if (/opus-4-[56]|haiku-4-5/.test(id)) return 4096
  if (/claude-3(-5)?-haiku/.test(id)) return 2048
  return 1024
}

interface Block { key: string; tokens: number; mark?: Ttl; refused?: string }

/**
 * The Messages API's prompt cache, as the fake server keeps it: the request is a sequence of
 * blocks (tools, then system, then messages); a breakpoint writes the prefix up to its block
 * when it is long enough for the model; a request reads the longest live prefix it finds at a
 * breakpoint or up to 20 blocks before one. Entries are per model and live their TTL from their
 * last write or read. Figures: read = the prefix found, written = from there to the last
 * breakpoint written, input = the rest (the total is the server's usual estimate).
 */
export class PromptCache {
  private readonly entries = new Map<string, { expires: number; ttl: Ttl }>()

  constructor(private readonly now: () => number = Date.now) {}

  /** The figures for `body`, an error for marks the API refuses, or null when nothing is marked. */
  count(body: Record<string, unknown>): CacheFigures | { error: string } | null {
    const blocks = blocksOf(body)
    const marks = blocks.flatMap((b, i) => (b.mark ? [i] : []))
    if (marks.length === 0) return null
    if (marks.length > MAX_BREAKPOINTS) return { error: `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${marks.length}.` }
    const refused = blocks.find((b) => b.mark && b.refused)
    if (refused) return { error: refused.refused! }
    const shortAfterLong = marks.findIndex((m, k) => k > 0 && blocks[m]!.mark === '1h' && blocks[marks[k - 1]!]!.mark === '5m')
    if (shortAfterLong >= 0) return { error: 'cache_control with ttl "1h" must not come after one with ttl "5m"' }

    const model = typeof body.model === 'string' ? body.model : ''
    const prefix: number[] = []
    const hashes: string[] = []
    let h = createHash('sha256').update(model).digest('hex')
    for (const b of blocks) {
      h = createHash('sha256').update(h).update(b.key).digest('hex')
      hashes.push(h)
      prefix.push((prefix.at(-1) ?? 0) + b.tokens)
    }
    const now = this.now()
    let hit = -1
    for (const m of marks) {
      for (let p = m; p >= Math.max(0, m - LOOKBACK + 1); p--) {
        const entry = this.entries.get(hashes[p]!)
        if (entry && entry.expires > now) {
          hit = Math.max(hit, p)
          break
        }
      }
    }
    if (hit >= 0) {
      const entry = this.entries.get(hashes[hit]!)!
      entry.expires = now + TTL_MS[entry.ttl]
    }
    // The usual estimate, never less than the blocks' own sum (each block is rounded up on its own).
    const total = Math.max(estimateJsonTokens([body.system, body.messages, body.tools].map(unmarked)), prefix.at(-1) ?? 0)
    const read = hit >= 0 ? prefix[hit]! : 0
    const split = { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }
    let covered = read
    for (const m of marks) {
      const ttl = blocks[m]!.mark!
      if (prefix[m]! < minimumCacheable(model)) continue
      this.entries.set(hashes[m]!, { expires: now + TTL_MS[ttl], ttl })
      if (prefix[m]! <= covered) continue
      split[ttl === '1h' ? 'ephemeral_1h_input_tokens' : 'ephemeral_5m_input_tokens'] += prefix[m]! - covered
      covered = prefix[m]!
    }
    const written = split.ephemeral_5m_input_tokens + split.ephemeral_1h_input_tokens
    return { input_tokens: total - read - written, cache_read_input_tokens: read, cache_creation_input_tokens: written, cache_creation: split }
  }
}

/** The request's blocks in the order the API reads them: tools, system, then each message's content. */
function blocksOf(body: Record<string, unknown>): Block[] {
  const out: Block[] = []
  const add = (where: string, value: unknown) => {
    const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>
    const cc = v.cache_control as { type?: string; ttl?: Ttl } | undefined | null
    const bare = unmarked(value)
    const key = `${where}\u0000${JSON.stringify(bare)}`
    const refused = v.type === 'thinking' || v.type === 'redacted_thinking' ? 'cache_control cannot be set on thinking blocks'
      : v.type === 'text' && v.text === '' ? 'cache_control cannot be set for empty text blocks' : undefined
    out.push({ key, tokens: Math.ceil((where.length + 1 + weighedJsonLength(bare)) / 4), ...(cc ? { mark: cc.ttl === '1h' ? '1h' : '5m' } : {}), ...(refused ? { refused } : {}) })
  }
  for (const t of Array.isArray(body.tools) ? body.tools : []) add('tool', t)
  if (typeof body.system === 'string') add('system', { type: 'text', text: body.system })
  else for (const b of Array.isArray(body.system) ? body.system : []) add('system', b)
  for (const m of Array.isArray(body.messages) ? (body.messages as { role?: string; content?: unknown }[]) : []) {
    // A string is shorthand for one text block: both forms are the same prefix.
    const content = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : []
    for (const b of content) add(String(m.role), b)
  }
  return out
}

/** A value with every `cache_control` taken out: marks do not change what a prefix is. */
function unmarked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unmarked)
  if (typeof value !== 'object' || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) if (k !== 'cache_control') out[k] = unmarked(v)
  return out
}
