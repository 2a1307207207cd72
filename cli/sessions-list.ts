import { resolve } from 'node:path'
import { listSessions, shorten } from '../mods/transcripts/store/list.js'
import type { CommandRun } from './command.js'
import { table } from './table.js'
import { reviewSessionStore } from './session-store.js'

const TITLE_CHARS = 30

/** `modloop sessions list`: the sessions of this directory, most recently active first, from the local files or the session store. */
export const sessionsList: CommandRun = async ({ values, io }) => {
  const cwd = resolve(io.cwd, typeof values.cwd === 'string' ? values.cwd : '.')
  const store = await reviewSessionStore(values, io, cwd)
  let sessions
  try {
    sessions = store
      ? await (await import('../mods/transcripts/store/postgres/list.js')).listStoredSessions(store, { cwd, env: io.env })
      : await listSessions({ cwd, env: io.env })
  } finally {
    await store?.close()
  }
  if (values.json === true) {
    io.stdout.write(`${JSON.stringify(sessions, null, 2)}\n`)
    return 0
  }
  if (sessions.length === 0) {
    io.stdout.write(`no sessions in ${cwd}\n`)
    return 0
  }
  // A title given to a session does not hide what it was started with: the first prompt has its own column.
  const rows = sessions.map((s) => [
    s.sessionId, s.lastActivity.replace('T', ' ').slice(0, 19), String(s.turns),
    s.customTitle !== undefined ? shorten(s.customTitle, TITLE_CHARS) : '-', shorten(s.firstPrompt) || '-',
  ])
  io.stdout.write(table(['ID', 'LAST ACTIVITY', 'TURNS', 'TITLE', 'FIRST PROMPT'], rows))
  return 0
}
