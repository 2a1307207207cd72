import { readFile, stat } from 'node:fs/promises'
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { realpathLoose } from './allowed-paths.js'
import { hashBytes, recordRead } from './read-state.js'

// A file's mtime and the transcript's millisecond timestamps can straddle one millisecond.
const CLOCK_SLACK_MS = 1

/**
 * Rebuilds what a resumed session had read, from the Read, Write and Edit calls in its history
 * that succeeded, and from `carried`, the files its last compaction recorded (their calls were
 * compacted away; the history after it says more and wins). A file unchanged since the session
 * was last active counts as read as it was then; one changed since counts as read but stale, so
 * Edit and Write ask for a fresh Read. Returns how many files were restored.
 */
export async function restoreReads(sessionId: string, messages: readonly MessageParam[], lastActivityMs: number, carried: readonly { path: string; whole: boolean }[] = []): Promise<number> {
  const files = new Map([...carried.map((r) => [r.path, r.whole] as const), ...touchedFiles(messages)])
  await Promise.all([...files].map(async ([path, whole]) => {
    const real = await realpathLoose(path)
    const info = await stat(real).catch(() => undefined)
    if (!info?.isFile()) return
    if (info.mtimeMs > lastActivityMs + CLOCK_SLACK_MS) {
      recordRead(sessionId, real, { mtimeMs: -1, hash: '', whole })
      return
    }
    recordRead(sessionId, real, { mtimeMs: info.mtimeMs, hash: hashBytes(await readFile(real)), whole })
  }))
  return files.size
}

/** Each file path a successful Read, Write or Edit named, with whether the model saw all of it. */
function touchedFiles(messages: readonly MessageParam[]): Map<string, boolean> {
  const calls = new Map<string, { name: string; input: Record<string, unknown> }>()
  const files = new Map<string, boolean>()
  for (const m of messages) {
    if (typeof m.content === 'string') continue
    for (const b of m.content) {
      if (b.type === 'tool_use' && (b.name === 'Read' || b.name === 'Write' || b.name === 'Edit')) {
        calls.set(b.id, { name: b.name, input: (b.input ?? {}) as Record<string, unknown> })
      } else if (b.type === 'tool_result' && b.is_error !== true) {
        const call = calls.get(b.tool_use_id)
        const path = call?.input.file_path
        if (!call || typeof path !== 'string') continue
        // An image or a PDF was seen as a picture, not as text Edit could match: it does not count as read.
        if (call.name === 'Read' && Array.isArray(b.content) && !/\.ipynb$/i.test(path)) continue
        const text = typeof b.content === 'string' ? b.content : ''
        const whole = call.name === 'Write' ? true
          : call.name === 'Edit' ? files.get(path) ?? true
          : call.input.offset === undefined && call.input.limit === undefined && !text.includes('Read on with offset')
        files.set(path, whole)
      }
    }
  }
  return files
}
