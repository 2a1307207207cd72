import { existsSync } from 'node:fs'
import { z } from 'zod'
import { describeError } from '../../core/errors.js'
import type { ResumedFrom, SessionMessageInput } from '../../core/events/types.js'
import type { ModApi } from '../../core/mod/api.js'
import type { LinesChanged } from '../../core/tools/tool.js'
import { envTrue } from '../../core/env.js'
import { defineMod } from '../../core/mod/define.js'
import { isPrompt, TURN_RESULT, type CustomTitleEntry, type UserEntry } from './store/entry.js'
import { subagentTranscriptPath } from './store/paths.js'
import { chainTo, readTranscript } from './store/transcript-read.js'
import { VERSION } from '../../core/version.js'
import { uuid as newUuid } from '../../core/random.js'
import { gitBranch } from './git-branch.js'
import { toLine, type LineBase } from './lines.js'
import { TranscriptWriter } from './writer.js'
import { journalFor, type Journal } from './store/journals.js'
import { readFilesOf } from '../_shared/read-state.js'
import { registerCommands } from '../_shared/register-command.js'
import { builtinOptions } from '../_shared/builtin-options.js'

const options = builtinOptions('transcripts', () => z.object({
  /** fsync after every line: a line then survives power loss too, not only a killed process, at a cost per message. */
  fsync: z.boolean().default(false),
}))

/** What the transcripts mod offers other mods, as the `transcripts` capability. */
export interface TranscriptsApi {
  /** Records the session's title (`modloop sessions list` shows it) as a `custom-title` line. */
  setTitle(sessionId: string, title: string): void
  /**
   * Records what a mod keeps beside the conversation as an `attachment` line hung from the message
   * written last, off the chain of messages. A resumed session's `resumedFrom.attachments` gives
   * back the last of each `type` recorded since its last compaction.
   */
  attach(sessionId: string, attachment: { type: string; [field: string]: unknown }): void
}

declare module '../../core/mod/capabilities.js' {
  interface Capabilities {
    transcripts: TranscriptsApi
    /** Where the session's transcript is written, by the mod that writes it. */
    transcriptFile: (sessionId: string) => string | undefined
  }
}

interface Recording {
  main: TranscriptWriter
  agents: Map<string, TranscriptWriter>
  base: LineBase
  /** Where the lines go besides the local file, when the session's store keeps it elsewhere too (Postgres). */
  journal?: Journal
  /**
   * Writes to the main transcript held back until the session's first prompt: a session that
   * only ran a command (/help, /cost) and ended leaves no file for `--continue` or the picker to
   * take for a conversation. Undefined once the file has a prompt (or for a resumed session).
   */
  held?: (() => void)[]
}

/**
 * Transcripts: every message of a session, appended as one JSONL line to
 * `<MODLOOP_HOME>/projects/<encoded cwd>/<session-id>.jsonl` as it enters the record (before the
 * caller sees it), subagents' lines to `<session-id>/subagents/agent-<id>.jsonl`. The file store
 * (./store) reads them back on resume and holds each session's lock. It provides where it writes
 * (`transcriptFile`) and a {@link TranscriptsApi} (`transcripts`).
 * A session started with `persistSession: false` is not written at all.
 */
export default defineMod({
  name: 'transcripts',
  description: 'Writes each session to an append-only JSONL transcript, for resume, continue and fork',
  options,
  provides: ['transcripts', 'transcriptFile'],
  uses: { permissionMode: 'optional', todo: 'optional' },
  register(on, opts, $) {
    const open = new Map<string, Recording>()
    // Kept after a session closes: what it recorded last (a trace line of its session.end) goes beside it.
    const written = new Map<string, string>()
    $.capability.provide('transcriptFile', (sessionId) => written.get(sessionId))
    const setTitle = (sessionId: string, title: string): void => {
      const line: CustomTitleEntry = { type: 'custom-title', customTitle: title, sessionId }
      const r = open.get(sessionId)
      if (r) write(r, () => r.main.appendDetached({ ...line }))
      if (r?.journal && !r.held) void stored(r.journal, $.log)
    }
    const attach = (sessionId: string, attachment: { type: string; [field: string]: unknown }): void => {
      const r = open.get(sessionId)
      if (!r) return
      write(r, () => r.main.appendDetached({ parentUuid: r.main.leaf, ...r.base, type: 'attachment', attachment, uuid: newUuid(), timestamp: new Date().toISOString() }))
      if (r.journal && !r.held) void stored(r.journal, $.log)
    }
    $.capability.provide('transcripts', { setTitle, attach })

    on('session.start', async ($, e, next) => {
      await registerCommands($, [{ name: 'rename', description: 'Give the session a title (`--resume <title>` and `modloop sessions list` know it by it)', argumentHint: '<name>', kind: 'local' }])
      // Core took the session in its store (its lock) before session.start: this process alone writes it.
      if (await isEphemeral($) || e.transcriptPath === '') return next(e)
      const branch = await gitBranch(e.cwd)
      const base: LineBase = {
        sessionId: e.sessionId, cwd: e.cwd, isSidechain: false, userType: 'external',
        entrypoint: $.env.get('CLAUDE_CODE_ENTRYPOINT') ?? 'sdk-ts', version: VERSION, ...(branch ? { gitBranch: branch } : {}),
      }
      const journal = journalFor(e.transcriptPath)
      const main = new TranscriptWriter(e.transcriptPath, { after: e.source === 'resume' ? e.resumedFrom?.leafUuid : null, fsync: opts.fsync, ...(journal ? { copy: (t: string) => journal.add(t) } : {}) })
      if (e.source === 'fork' && e.resumedFrom) await copyHistory(main, e.resumedFrom, e.sessionId)
      const held = existsSync(e.transcriptPath) ? undefined : []
      open.set(e.sessionId, { main, agents: new Map(), base, ...(journal ? { journal } : {}), ...(held ? { held } : {}) })
      written.set(e.sessionId, e.transcriptPath)
      // A title given at launch (`-n`, query()'s `title`) names a new session; a resumed one keeps its own.
      if (e.source === 'startup' || e.source === 'fork') {
        const { title } = ((await $.settings.read({ source: 'flag' })) ?? {}) as { title?: unknown }
        if (typeof title === 'string' && title.trim()) setTitle(e.sessionId, title.trim())
      }
      return next(e)
    })

    // `/rename <name>`, as Claude Code's; without a name Claude Code asks the model for one, which this does not.
    on('command.run', ($, e, next) => {
      if (e.command !== 'rename') return next(e)
      const title = e.args.trim()
      if (!title) return { output: 'Usage: /rename <name>' }
      setTitle($.session.id() as string, title)
      return { output: `Session renamed to: ${title}` }
    })

    on('session.message', async ($, e, next) => {
      const recording = open.get($.session.id() as string)
      if (recording) record(recording, e, { model: () => $.session.model() as string, permissionMode: () => $.capability.use('permissionMode')?.mode(), carried: () => carriedState($), linesChanged: () => ($.session.usage() as { lines: LinesChanged }).lines }, opts.fsync)
      // A store that keeps the session elsewhere has it too before the caller sees the message.
      if (recording?.journal && !recording.held) await stored(recording.journal, $.log)
      return next(e)
    })

    on('session.end', async ($, e, next) => {
      const journal = open.get(e.sessionId)?.journal
      close(open, e.sessionId)
      if (journal) await stored(journal, $.log)
      return next(e)
    })

    return () => {
      for (const id of [...open.keys()]) close(open, id)
    }
  },
})

/**
 * `persistSession: false` (`--no-session-persistence`) arrives with the launch flags; Claude Code's
 * `CLAUDE_CODE_SKIP_PROMPT_HISTORY` (settings `env` included) does the same: nothing is written.
 */
async function isEphemeral($: ModApi): Promise<boolean> {
  if (envTrue($.env.get('CLAUDE_CODE_SKIP_PROMPT_HISTORY'))) return true
  try {
    const flags = (await $.settings.read({ source: 'flag' })) as { persistSession?: unknown } | undefined
    return flags?.persistSession === false
  } catch {
    return false
  }
}

interface Live {
  model(): string
  permissionMode(): string | undefined
  carried(): Pick<UserEntry, 'todos' | 'readFiles'>
  /** The lines the session's edits changed so far: the result line keeps them for a resumed session. */
  linesChanged(): LinesChanged
}

function record(r: Recording, e: SessionMessageInput, live: Live, fsync: boolean): void {
  const agentId = e.agentId
  let writer = r.main
  if (agentId) {
    const journal = r.journal
    writer = r.agents.get(agentId) ?? new TranscriptWriter(subagentTranscriptPath(r.main.path, agentId), { fsync, ...(journal ? { copy: (t: string) => journal.add(t, agentId) } : {}) })
    r.agents.set(agentId, writer)
  }
  const base = agentId ? { ...r.base, isSidechain: true, agentId } : r.base
  const line = toLine(e.message, base, e.message.type === 'result' && !agentId ? live.model() : undefined)
  if (line?.type === 'user' && !agentId && isPrompt(line)) {
    const mode = live.permissionMode()
    if (mode) line.permissionMode = mode
  }
  if (line?.type === 'user' && !agentId && line.isCompactSummary) Object.assign(line, live.carried())
  if (line?.type === 'system' && line.subtype === TURN_RESULT && !agentId) line.linesChanged = live.linesChanged()
  if (!line) return
  const append = () => writer.append(line, e.message.type === 'assistant' ? e.message.supersedes : undefined)
  if (agentId) return append()
  if (r.held && line.type === 'user' && isPrompt(line)) {
    for (const w of r.held.splice(0)) w()
    delete r.held
  }
  write(r, append)
}

/** Writes to the main transcript now, or holds the write back until the first prompt. */
function write(r: Recording, w: () => void): void {
  if (r.held) r.held.push(w)
  else w()
}

/**
 * State a compaction takes out of the conversation along with the tool calls that built it: the
 * todo list (as the todo mod publishes it) and the files read. The summary line keeps it, so a
 * session resumed after the compaction gets it back.
 */
function carriedState($: ModApi): Pick<UserEntry, 'todos' | 'readFiles'> {
  const todos = $.capability.use('todo')?.todos()
  const readFiles = readFilesOf($.session.id() as string)
  return { ...(Array.isArray(todos) ? { todos: todos as unknown[] } : {}), ...(readFiles.length > 0 ? { readFiles } : {}) }
}

/** A fork starts as a copy of the original's chain up to where it was taken, under the new id. */
async function copyHistory(writer: TranscriptWriter, from: ResumedFrom, sessionId: string): Promise<void> {
  const { entries } = await readTranscript(from.transcriptPath)
  const chain = from.leafUuid ? chainTo(entries, from.leafUuid) : []
  writer.appendLinked(chain.map((entry) => ({ ...entry, sessionId })))
}

/** Waits for the journal; a line it could not store is reported (it keeps the line and sends it again with the next one). */
async function stored(journal: Journal, log: ModApi['log']): Promise<void> {
  try {
    await journal.flush()
  } catch (err) {
    log.error(`the session store did not take the transcript's last lines (the local transcript has them; they are sent again with the next line): ${describeError(err)}`)
  }
}

function close(open: Map<string, Recording>, sessionId: string): void {
  const r = open.get(sessionId)
  if (!r) return
  open.delete(sessionId)
  r.main.close()
  for (const w of r.agents.values()) w.close()
}
