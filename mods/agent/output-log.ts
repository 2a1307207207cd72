import { appendFile, mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { SDKMessage } from '../../core/loop/messages.js'
import { describeError } from '../../core/errors.js'

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}... (${text.length - max} more characters)` : text)

/** One line of a subagent's progress for its output file: what it said, which tools it called, what they answered. */
export function progressLine(m: SDKMessage): string | undefined {
  if (m.type === 'assistant') {
    return m.message.content.map((b) => {
      if (b.type === 'text') return b.text
      if (b.type === 'tool_use') return `-> ${b.name} ${clip(JSON.stringify(b.input), 300)}`
      return ''
    }).filter(Boolean).join('\n') || undefined
  }
  if (m.type === 'user' && Array.isArray(m.message.content)) {
    return m.message.content.map((b) => {
      if (b.type !== 'tool_result') return ''
      const text = typeof b.content === 'string' ? b.content : (b.content ?? []).map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n')
      return `<- ${b.is_error ? 'error: ' : ''}${clip(text, 500)}`
    }).filter(Boolean).join('\n') || undefined
  }
  return undefined
}

/**
 * A task's output file, appended to in order as its subagent works. Lines that come while a write
 * is under way go out together with the next one, so a chatty subagent costs few writes; a write
 * that fails is reported once.
 */
export class OutputLog {
  private chain: Promise<void>
  private pending = ''
  private failed = false

  constructor(readonly file: string, private readonly warn: (message: string) => void) {
    this.chain = mkdir(dirname(file), { recursive: true }).then(() => appendFile(file, '')).catch((err: unknown) => this.fail(err))
  }

  write(text: string): void {
    const queued = this.pending !== ''
    this.pending += text.endsWith('\n') ? text : `${text}\n`
    if (queued) return
    this.chain = this.chain.then(() => {
      const batch = this.pending
      this.pending = ''
      return this.failed ? undefined : appendFile(this.file, batch)
    }).catch((err: unknown) => this.fail(err))
  }

  /** Resolves once everything written so far is on disk. */
  flush(): Promise<void> {
    return this.chain
  }

  private fail(err: unknown): void {
    if (this.failed) return
    this.failed = true
    this.warn(`${this.file}: the task's output could not be written: ${describeError(err)}`)
  }
}
