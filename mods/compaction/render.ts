import type { SessionMessage } from '../../core/events/types.js'
import { weighedJsonLength } from '../../core/model/media-weight.js'

type Block = { type: string; [field: string]: unknown }

/** A message's blocks, a plain string as the one text block it is. */
export const blocksOf = (m: SessionMessage): Block[] =>
  typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? (m.content as Block[]) : []

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)}... [${(text.length - max).toLocaleString('en-US')} more characters]`)

function resultText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return (content as Block[]).map((b) => (b.type === 'text' ? String(b.text) : `[${b.type}]`)).join('\n')
}

export interface RenderLimits {
  /** Characters kept of one tool result or tool input. */
  toolChars: number
  /** Characters kept of one text block. */
  textChars: number
  /** Characters of the whole rendering; past it, the middle of the conversation is left out. */
  totalChars: number
}

/**
 * The conversation as plain text for the summarizer: who said what, which tools ran with what
 * input, and the head of each result. Thinking is left out (it is not part of the record the
 * model keeps). Past the total budget, the opening (the person's first requests) and the most
 * recent part are kept and the middle is marked as omitted.
 */
export function renderConversation(messages: readonly SessionMessage[], limits: RenderLimits): string {
  const names = new Map<string, string>()
  const lines: string[] = []
  for (const m of messages) {
    for (const b of blocksOf(m)) {
      if (b.type === 'text') lines.push(`${m.role === 'user' ? 'User' : 'Assistant'}: ${cut(String(b.text), limits.textChars)}`)
      else if (b.type === 'tool_use') {
        names.set(String(b.id), String(b.name))
        lines.push(`Assistant called ${String(b.name)}: ${cut(JSON.stringify(b.input ?? {}), limits.toolChars)}`)
      } else if (b.type === 'tool_result') {
        const name = names.get(String(b.tool_use_id)) ?? 'a tool'
        lines.push(`Result of ${name}${b.is_error ? ' (error)' : ''}: ${cut(resultText(b.content), limits.toolChars)}`)
      } else if (b.type === 'image' || b.type === 'document') lines.push(`${m.role === 'user' ? 'User' : 'Assistant'}: [${b.type}]`)
    }
  }
  const all = lines.join('\n\n')
  if (all.length <= limits.totalChars) return all
  const headBudget = Math.floor(limits.totalChars / 5)
  const head: string[] = []
  let used = 0
  for (const line of lines) {
    if (used + line.length > headBudget) break
    head.push(line)
    used += line.length + 2
  }
  const tail: string[] = []
  used = 0
  for (let i = lines.length - 1; i >= head.length; i--) {
    const line = lines[i]!
    if (used + line.length > limits.totalChars - headBudget) break
    tail.unshift(line)
    used += line.length + 2
  }
  const omitted = lines.length - head.length - tail.length
  return [...head, `[... ${omitted} earlier exchanges omitted for length ...]`, ...tail].join('\n\n')
}

/**
 * Where the kept tail starts: the earliest assistant message (right after a user message) from
 * which the rest fits in `budget` tokens, at four characters a token. Undefined: keep nothing.
 * The head before it is never empty, so there is always something to summarize.
 */
export function tailStart(messages: readonly SessionMessage[], budget: number): number | undefined {
  if (budget <= 0) return undefined
  let tokens = 0
  let start: number | undefined
  for (let i = messages.length - 1; i >= 1; i--) {
    tokens += Math.ceil(weighedJsonLength(messages[i]!.content) / 4)
    if (tokens > budget) break
    if (messages[i]!.role === 'assistant' && messages[i - 1]!.role === 'user') start = i
  }
  return start
}

/** Files the Read tool opened, most recent first, without repeats. */
export function readPaths(messages: readonly SessionMessage[]): string[] {
  const seen = new Set<string>()
  for (let i = messages.length - 1; i >= 0; i--) {
    const blocks = blocksOf(messages[i]!)
    for (let j = blocks.length - 1; j >= 0; j--) {
      const b = blocks[j]!
      const input = b.input as { file_path?: unknown } | undefined
      if (b.type === 'tool_use' && b.name === 'Read' && typeof input?.file_path === 'string') seen.add(input.file_path)
    }
  }
  return [...seen]
}
