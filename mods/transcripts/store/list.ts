import { isCustomTitle, isPrompt, isUserEntry, type MessageEntry, type TranscriptEntry } from './entry.js'
import { typedCommand } from '../../../core/loop/command-header.js'
import { sessionFiles } from './locate.js'
import { projectDir } from './paths.js'
import { rebuildHistory } from './rebuild.js'
import { chainTo, readTranscript } from './transcript-read.js'

export { isPrompt }

type Env = Record<string, string | undefined>

/** One session as `modloop sessions list` and `listSessions()` describe it. */
export interface SessionInfo {
  sessionId: string
  path: string
  /** The title a hook or command gave the session, else the first prompt, on one line, shortened. */
  title: string
  /** The title given to the session (the last `custom-title` line), when one was. */
  customTitle?: string
  firstPrompt: string
  /** Prompts the session took. */
  turns: number
  /** Messages in its history (as the next request would send them). */
  messages: number
  createdAt?: string
  lastActivity: string
  fileSize: number
  totalCostUsd: number
  gitBranch?: string
}

const TITLE_CHARS = 60

/**
 * The sessions of the project of `cwd`, most recently active first. A file with no prompt in it
 * (unreadable, damaged, or left by a session that only ran a command) is no session to go back to.
 */
export async function listSessions(options: { cwd: string; env?: Env; limit?: number }): Promise<SessionInfo[]> {
  const files = await sessionFiles(projectDir(options.cwd, options.env))
  const infos = await Promise.all(files.map(async (f) => {
    const entries = await readTranscript(f.path).then((r) => r.entries, (): TranscriptEntry[] => [])
    return sessionInfo(entries, f)
  }))
  return infos.filter((s): s is SessionInfo => s !== undefined).slice(0, options.limit ?? Infinity)
}

/** One session's listing from its transcript's entries, whichever store kept them; undefined when it took no prompt. */
export function sessionInfo(entries: readonly TranscriptEntry[], f: { sessionId: string; path: string; mtimeMs: number; size: number }): SessionInfo | undefined {
  if (!entries.some(isPrompt)) return undefined
  const chain = chainTo(entries)
  const rebuilt = rebuildHistory(chain)
  const firstPrompt = promptText(chain.find((e) => isPrompt(e))) ?? ''
  const first = chain[0]
  const customTitle = entries.findLast(isCustomTitle)?.customTitle
  return {
    sessionId: f.sessionId, path: f.path, title: shorten(customTitle ?? firstPrompt), ...(customTitle !== undefined ? { customTitle } : {}), firstPrompt, turns: rebuilt.userTurns, messages: rebuilt.messages.length,
    ...(first ? { createdAt: first.timestamp } : {}),
    lastActivity: new Date(rebuilt.lastActivityMs || f.mtimeMs).toISOString(), fileSize: f.size, totalCostUsd: rebuilt.totalCostUsd,
    ...(typeof chain.at(-1)?.gitBranch === 'string' ? { gitBranch: chain.at(-1)!.gitBranch } : {}),
  }
}

/** The text the user typed: the prompt's first text block (context blocks follow it); a command as it was typed, not its header. */
export function promptText(e: MessageEntry | undefined): string | undefined {
  if (!e || !isUserEntry(e)) return undefined
  const c = e.message.content
  const first = typeof c === 'string' ? c : c.find((b) => b.type === 'text')
  const text = typeof first === 'string' ? first : first && 'text' in first ? first.text : undefined
  return text === undefined ? undefined : typedCommand(text) ?? text
}

export function shorten(text: string, max = TITLE_CHARS): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length <= max ? line : `${line.slice(0, max - 1)}...`
}
