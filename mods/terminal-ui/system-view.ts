import type { SDKMessage } from '../../core/loop/messages.js'
import type { Paint } from './color.js'
import { seconds } from './tool-view.js'

type SystemMessage = Extract<SDKMessage, { type: 'system' }>

const tokens = (n: unknown) => (typeof n === 'number' ? n.toLocaleString('en-US') : undefined)

/**
 * The scrollback line of a `system` message, or nothing for those shown otherwise (init sets the
 * status line; a `status` of compacting and an `api_retry` are live lines; a failed compaction is
 * reported by the caller, who knows whether a command already said so).
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
    case 'informational':
      return m.level === 'warning' ? paint.yellow(String(m.content)) : paint.dim(String(m.content))
    case 'local_command_output':
      return String(m.content ?? '')
    case 'task_started':
      return m.is_backgrounded === true ? paint.dim(`⧉ in the background: ${String(m.description)} (${String(m.task_id)})`) : undefined
    case 'task_notification': {
      // A subagent's summary is its whole report: its first line stands for it here.
      const first = String(m.summary).split('\n')[0]!
      const line = `⧉ ${first.length > 100 ? `${first.slice(0, 99)}…` : first} (${String(m.task_id)})`
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

/** A retry the turn waits for: what failed, the attempt and when it goes again. */
export interface Retry { attempt: number; max?: number; at: number; why: string }

export function retryOf(m: SystemMessage, now: number): Retry | undefined {
  if (m.subtype !== 'api_retry') return undefined
  const why = String(m.error_message ?? m.error ?? (m.error_status ? `status ${String(m.error_status)}` : 'no response'))
  const delay = typeof m.retry_delay_ms === 'number' ? m.retry_delay_ms : 0
  return { attempt: Number(m.attempt), ...(typeof m.max_retries === 'number' ? { max: m.max_retries } : {}), at: now + delay, why }
}

/** The live line of a retry: it counts down to the next attempt, and goes once an answer streams. */
export function retryLine(r: Retry, now: number, paint: Paint): string {
  const left = Math.max(0, Math.ceil((r.at - now) / 1000))
  const of = r.max === undefined ? '' : `/${r.max}`
  return paint.yellow(`↻ ${r.why} · retrying in ${left}s · attempt ${r.attempt}${of}`)
}
