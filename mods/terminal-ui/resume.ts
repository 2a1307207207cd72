import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import type { ModApi } from '../../core/mod/api.js'
import type { App } from './app.js'
import type { Paint } from './color.js'
import type { MessageView } from './message-view.js'
import { describeError } from '../../core/errors.js'
import { typedCommand } from '../../core/loop/command-header.js'
import type { Chosen } from './chooser.js'
import { SearchChooser } from './search-chooser.js'

const SHOWN_SESSIONS = 9
const SHOWN_MESSAGES = 4

/**
 * `/resume`: the session named, or one picked from this directory's sessions; undefined to stay.
 * `--resume` with no id asks the same at launch (`by` names it in what is shown, and there is no
 * current session); `--resume <text>` naming no session opens it searching for `search`.
 */
export async function pickSession(app: App, view: MessageView, paint: Paint, cwd: string, env: Record<string, string | undefined>, asked: string, current: string, by = '/resume', search = ''): Promise<string | undefined> {
  const { listSessions } = await import('../transcripts/store/list.js')
  const sessions = (await listSessions({ cwd, env })).filter((s) => s.sessionId !== current)
  if (asked) {
    const match = sessions.find((s) => s.sessionId === asked || s.sessionId.startsWith(asked))
    if (!match) void view.print(paint.red(`${by}: no other session of this directory has the id ${asked}`))
    return match && await openable(view, paint, match.sessionId, cwd, env, by)
  }
  if (sessions.length === 0) {
    void view.print(paint.yellow(current ? `${by}: this directory has no other session` : `${by}: this directory has no session yet; starting a new one`))
    return undefined
  }
  const choices = sessions.map((s) => ({
    label: `${s.title || '(no prompt)'} ${paint.dim(`· ${s.turns} ${s.turns === 1 ? 'turn' : 'turns'} · ${localTime(s.lastActivity)} · ${s.sessionId.slice(0, 8)}`)}`,
    value: s.sessionId as string | undefined,
    // What the search looks in: the title, the first prompt, the branch and the id.
    text: [s.customTitle, s.firstPrompt, s.gitBranch, s.sessionId].filter(Boolean).join('\n'),
  }))
  const { value } = await new Promise<Chosen<string | undefined>>((resolve) => {
    app.open(new SearchChooser(['Resume which session?'], choices, resolve, undefined, search, SHOWN_SESSIONS))
  })
  return value && await openable(view, paint, value, cwd, env, by)
}

/** A stored time (ISO, UTC) as the clock on the user's wall reads it: `2026-12-06 14:31`. */
export function localTime(iso: string): string {
  const d = new Date(iso)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`
}

/**
 * Checks, before the current session is ended for it, that the picked one can be opened: still
 * there and not written by another process. Answers its id, or undefined (the reason shown) to stay.
 */
async function openable(view: MessageView, paint: Paint, sessionId: string, cwd: string, env: Record<string, string | undefined>, by: string): Promise<string | undefined> {
  const [{ findSession }, { assertUnlocked }] = await Promise.all([import('../transcripts/store/locate.js'), import('../transcripts/store/lock.js')])
  try {
    const file = await findSession(sessionId, cwd, env)
    assertUnlocked(file.path, file.sessionId)
    return sessionId
  } catch (err) {
    void view.print(paint.red(`${by}: ${describeError(err)}; ${by === '/resume' ? 'staying in this session' : 'starting a new session'}`))
    return undefined
  }
}

/** Whether a session can be resumed: it has a transcript with a prompt (a session ended before its first has none). */
export async function resumable(sessionId: string, cwd: string, env: Record<string, string | undefined>): Promise<boolean> {
  const [{ findSession }, { readTranscript }, { isPrompt }] = await Promise.all([
    import('../transcripts/store/locate.js'), import('../transcripts/store/transcript-read.js'), import('../transcripts/store/entry.js'),
  ])
  try {
    const file = await findSession(sessionId, cwd, env)
    return (await readTranscript(file.path)).entries.some(isPrompt)
  } catch {
    return false
  }
}

/** After a resume: which session this is, and the last few exchanges. */
export function showResumed(view: MessageView, paint: Paint, $: ModApi, sessionId: string): void {
  const messages = $.session.messages() as MessageParam[]
  const lines: string[] = []
  for (const m of messages) {
    // A prompt's first text block is what was typed (a command's header, read back as typed); later ones are context the runtime attached.
    const texts = typeof m.content === 'string' ? [m.content] : m.content.filter((b) => b.type === 'text').map((b) => (b as { text: string }).text)
    const text = (m.role === 'user' ? texts.slice(0, 1).map((t) => typedCommand(t) ?? t) : texts).join(' ')
    if (!text.trim() || text.startsWith('<')) continue
    lines.push(m.role === 'user' ? `${paint.bold('›')} ${oneLine(text)}` : `  ${oneLine(text)}`)
  }
  const tail = lines.slice(-SHOWN_MESSAGES)
  void view.print([paint.green(`Resumed session ${sessionId}`), ...(lines.length > tail.length ? [paint.dim('  …')] : []), ...tail].join('\n'))
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 100 ? `${flat.slice(0, 99)}…` : flat
}
