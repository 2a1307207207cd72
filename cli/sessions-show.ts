import { resolve } from 'node:path'
import type { SDKMessage } from '../core/loop/messages.js'
import { isTurnResult, type MessageEntry } from '../mods/transcripts/store/entry.js'
import { isPrompt, promptText } from '../mods/transcripts/store/list.js'
import { findSession } from '../mods/transcripts/store/locate.js'
import { chainTo, parseTranscript, readTranscript, type ReadTranscript } from '../mods/transcripts/store/transcript-read.js'
import { redact } from '../mods/transcripts/store/postgres/connect.js'
import { ModloopError } from '../core/errors.js'
import { reviewSessionStore } from './session-store.js'
import type { CommandRun } from './command.js'
import { renderPretty } from './pretty.js'

/** `modloop sessions show <id>`: the conversation replayed as `-p --verbose` shows it live, from the local files or the session store. */
export const sessionsShow: CommandRun = async ({ values, positionals, io }) => {
  const cwd = resolve(io.cwd, typeof values.cwd === 'string' ? values.cwd : '.')
  const store = await reviewSessionStore(values, io, cwd)
  let where: string
  let read: ReadTranscript
  try {
    if (store) {
      const stored = await store.read(positionals[0]!)
      if (!stored) throw new ModloopError('MODLOOP_ERR_SESSION', `No conversation found with session ID: ${positionals[0]} (in the session store at ${redact(store.url)})`, { field: 'id' })
      where = `${redact(store.url)} (session store)`
      read = parseTranscript(stored.main, where)
    } else {
      const file = await findSession(positionals[0]!, cwd, io.env)
      where = file.path
      read = await readTranscript(file.path)
    }
  } finally {
    await store?.close()
  }
  for (const w of read.warnings) io.stderr.write(`modloop: ${w}\n`)
  const chain = chainTo(read.entries)
  io.stdout.write(`session ${positionals[0]}\n${where}\n`)
  const kept = keptByCompaction(chain)
  chain.forEach((e, i) => {
    const label = kept.get(i)
    if (label === 'first' || label === 'both') io.stdout.write('\n── kept by the compaction: shown above already, not run again ──\n')
    io.stdout.write(render(e))
    if (label === 'last' || label === 'both') io.stdout.write('── end of what the compaction kept ──\n')
  })
  return 0
}

/**
 * A compaction records the history it leaves after its boundary: the summary, then the messages
 * it kept, which already ran before it (runtime-marked user lines and responses without usage, as
 * core/loop/compact.ts records them). Answers where such runs of kept lines start and end.
 */
function keptByCompaction(chain: readonly MessageEntry[]): Map<number, 'first' | 'last' | 'both'> {
  const marks = new Map<number, 'first' | 'last' | 'both'>()
  const isKept = (e: MessageEntry) => (e.type === 'user' && e.isMeta === true && e.isCompactSummary !== true)
    || (e.type === 'assistant' && Object.values(e.message.usage ?? {}).every((n) => !n))
  chain.forEach((e, i) => {
    if (e.type !== 'user' || e.isCompactSummary !== true) return
    let end = i
    while (end + 1 < chain.length && isKept(chain[end + 1]!)) end++
    if (end === i) return
    marks.set(i + 1, 'first')
    marks.set(end, end === i + 1 ? 'both' : 'last')
  })
  return marks
}

function render(e: MessageEntry): string {
  const time = e.timestamp.slice(11, 19)
  if (isPrompt(e)) return `\n[${time}] > ${promptText(e) ?? ''}\n`
  if (e.type === 'assistant') return renderPretty({ type: 'assistant', message: e.message, parent_tool_use_id: null, uuid: e.uuid, session_id: e.sessionId }, { color: false })
  if (e.type === 'user') return renderPretty({ type: 'user', message: e.message, parent_tool_use_id: null }, { color: false })
  if (isTurnResult(e)) return renderPretty({ type: 'result', ...e.result, permission_denials: [], uuid: e.uuid, session_id: e.sessionId } as SDKMessage, { color: false })
  return renderPretty({ ...e, type: 'system', subtype: e.subtype, uuid: e.uuid, session_id: e.sessionId } as SDKMessage, { color: false })
}
