import type { SessionMessage } from '../../core/events/types.js'

/** What a microcompaction pass clears: results of these tools older than the `keepRecent` newest, once the context passes `atTokens`. */
export interface MicrocompactRule {
  atTokens: number
  keepRecent: number
  tools: readonly string[]
  marker: string
}

type Block = { type: string; id?: string; name?: string; tool_use_id?: string; content?: unknown }

/**
 * The history with the content of old tool results replaced by the rule's marker, or undefined
 * when there is nothing left to clear. Changed messages are new objects with new content arrays;
 * nothing given is mutated (the originals were also handed to the caller's stream). `at.from` is
 * where to look from — before it, every result that may be cleared is — and moves on here.
 */
export function microcompact(messages: readonly SessionMessage[], rule: MicrocompactRule, at: { from: number }): SessionMessage[] | undefined {
  const tools = new Set(rule.tools)
  const names = new Map<string, string>()
  const found: { index: number; message: number }[] = []
  for (let message = Math.min(at.from, messages.length); message < messages.length; message++) {
    const content = messages[message]!.content
    if (!Array.isArray(content)) continue
    for (let index = 0; index < content.length; index++) {
      const b = content[index] as Block
      if (b.type === 'tool_use') names.set(String(b.id), String(b.name))
      else if (b.type === 'tool_result' && tools.has(names.get(String(b.tool_use_id)) ?? '')) found.push({ index, message })
    }
  }
  const kept = found[found.length - rule.keepRecent]
  // Next time, start at the response whose call the oldest kept result answers.
  if (rule.keepRecent === 0) at.from = messages.length
  else if (kept) at.from = Math.max(at.from, kept.message - 1)
  let out: SessionMessage[] | undefined
  for (const { index, message } of found.slice(0, Math.max(0, found.length - rule.keepRecent))) {
    const content = (out ?? messages)[message]!.content as Block[]
    if (content[index]!.content === rule.marker) continue
    out ??= [...messages]
    // The first change to a message copies its content; later ones write to that copy.
    const copy = out[message] === messages[message] ? [...content] : content
    copy[index] = { ...content[index]!, content: rule.marker }
    out[message] = { ...messages[message]!, content: copy }
  }
  return out
}
