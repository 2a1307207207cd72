import type { SDKMessage } from '../core/loop/messages.js'

export interface PrettyOptions {
  color: boolean
}

const paint = (on: boolean, code: string, text: string) => (on ? `\u001b[${code}m${text}\u001b[0m` : text)
const oneLine = (text: string, max = 100) => {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

/** One readable line (or a few) per message: tool calls with their key argument, results, the answer, cost and time. */
export function renderPretty(m: SDKMessage, { color }: PrettyOptions): string {
  switch (m.type) {
    case 'assistant': {
      const block = m.message.content[0]
      if (!block) return ''
      if (block.type === 'text') return m.is_api_error_message ? paint(color, '31', `${block.text}\n`) : `${block.text}\n`
      if (block.type === 'thinking') return paint(color, '2', `∴ ${oneLine(block.thinking)}\n`)
      if (block.type === 'tool_use') return paint(color, '36', `● ${block.name}(${keyArgument(block.input)})\n`)
      return ''
    }
    case 'user': {
      const content = m.message.content
      const result = Array.isArray(content) ? content.find((b) => b.type === 'tool_result') : undefined
      if (!result || result.type !== 'tool_result') return ''
      // An image in a result is named, not printed: its base64 would fill the terminal.
      const text = typeof result.content === 'string' ? result.content : (result.content ?? []).map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n')
      const lines = text.split('\n')
      const shown = lines.slice(0, 6).map((l, i) => `${i === 0 ? '  ⎿ ' : '    '}${l}`).join('\n')
      const more = lines.length > 6 ? `\n    … ${lines.length - 6} more lines` : ''
      return paint(color, result.is_error ? '31' : '2', `${shown}${more}\n`)
    }
    case 'system':
      if (m.subtype === 'api_retry') return paint(color, '33', `↻ retrying the request (attempt ${String(m.attempt)}): ${String(m.error_message)}\n`)
      if (m.subtype === 'informational') return paint(color, '33', `${String(m.content)}\n`)
      if (m.subtype === 'compact_boundary') return paint(color, '2', `— conversation compacted (${compactFigures(m.compact_metadata)})\n`)
      if (m.subtype === 'status' && m.status === 'compacting') return paint(color, '2', '… compacting the conversation\n')
      if (m.subtype === 'status' && m.compact_result === 'failed') return paint(color, '33', `compaction failed: ${String(m.compact_error ?? 'unknown error')}\n`)
      return ''
    case 'result': {
      const cost = `$${m.total_cost_usd.toFixed(4)}`
      const time = `${(m.duration_ms / 1000).toFixed(2)}s (API ${(m.duration_api_ms / 1000).toFixed(2)}s)`
      return paint(color, '2', `— ${m.subtype}${m.is_error ? ' (error)' : ''} · ${m.num_turns} model turns · ${cost} · ${time}\n`)
    }
    default:
      return ''
  }
}

function compactFigures(meta: unknown): string {
  const m = (typeof meta === 'object' && meta !== null ? meta : {}) as { trigger?: unknown; pre_tokens?: unknown; post_tokens?: unknown }
  const tokens = typeof m.pre_tokens === 'number' && typeof m.post_tokens === 'number' ? ` · ${m.pre_tokens} → ${m.post_tokens} tokens` : ''
  return `${m.trigger === 'auto' ? 'auto' : 'manual'}${tokens}`
}

function keyArgument(input: unknown): string {
  if (typeof input !== 'object' || input === null) return ''
  const i = input as Record<string, unknown>
  for (const key of ['command', 'file_path', 'pattern', 'url', 'path', 'description', 'text']) {
    if (typeof i[key] === 'string') return oneLine(i[key] as string, 80)
  }
  return oneLine(JSON.stringify(input), 80)
}
