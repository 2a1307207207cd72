import type { SDKMessage } from '../../core/loop/messages.js'
import type { Paint } from './color.js'
import { seconds } from './tool-view.js'

type SystemMessage = Extract<SDKMessage, { type: 'system' }>

const tokens = (n: unknown) => (typeof n === 'number' ? n.toLocaleString('en-US') : undefined)

/**
 * The scrollback line of a `system` message, or nothing for those shown otherwise (init sets the
 * status line; a `status` of compacting is a live spinner; a failed compaction is reported by the
 * caller, who knows whether a command already said so).
 */
export function systemLine(m: SystemMessage, paint: Paint, width: number): string | undefined {
  switch (m.subtype) {
    case 'compact_boundary': {
      const meta = (m.compact_metadata ?? {}) as { trigger?: string; pre_tokens?: number; post_tokens?: number; duration_ms?: number }
      const figures = [
        meta.trigger === 'auto' ? 'automatically' : 'on request',
        tokens(meta.pre_tokens) && tokens(meta.post_tokens) ? `${tokens(meta.pre_tokens)} → ${tokens(meta.post_tokens)} tokens` : undefined,
        typeof meta.duration_ms === 'number' ? seconds(meta.duration_ms) : undefined,
      ].filter(Boolean).join(' · ')
      const label = ` Conversation compacted · ${figures} `
      return paint.dim(`───${label}${'─'.repeat(Math.max(3, width - label.length - 3))}`)
    }
    case 'api_retry': {
      const of = typeof m.max_retries === 'number' ? ` of ${m.max_retries}` : ''
      const wait = typeof m.retry_delay_ms === 'number' ? `, in ${seconds(m.retry_delay_ms)}` : ''
      const why = String(m.error_message ?? m.error ?? (m.error_status ? `status ${String(m.error_status)}` : 'no response'))
      return paint.yellow(`↻ retrying the request (attempt ${String(m.attempt)}${of}${wait}): ${why}`)
    }
    case 'informational':
      return m.level === 'warning' ? paint.yellow(String(m.content)) : paint.dim(String(m.content))
    case 'local_command_output':
      return String(m.content ?? '')
    case 'task_started':
      return m.is_backgrounded === true ? paint.dim(`⧉ in the background: ${String(m.description)} (${String(m.task_id)})`) : undefined
    case 'task_notification': {
      const line = `⧉ ${String(m.summary)} (${String(m.task_id)})`
      return m.status === 'completed' ? paint.dim(line) : paint.yellow(line)
    }
    default:
      return undefined
  }
}

/** A failed compaction's `status` message: its error, else nothing. */
export function compactFailure(m: SystemMessage): string | undefined {
  if (m.subtype !== 'status' || m.compact_result !== 'failed') return undefined
  return typeof m.compact_error === 'string' && m.compact_error ? m.compact_error : 'unknown error'
}
