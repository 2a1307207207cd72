import { resolve } from 'node:path'
import type { CommandRun, Values } from './command.js'
import type { Io } from './io.js'
import { reviewSessionStore } from './session-store.js'
import { usageError } from './usage-error.js'
import type { PostgresStore } from '../mods/transcripts/store/postgres/pg-store.js'

/**
 * `modloop sessions push <id>`: a session of this machine's files into the session store, where
 * any machine resumes it (`--resume <id> --session-store URL`). `modloop sessions pull <id>`: the
 * other way, a session of the store into the local files, for a run without the store. Only lines
 * the other side lacks are copied, so a session can go back and forth.
 */
export const sessionsPush: CommandRun = async ({ values, positionals, io }) => move(values, io, async (store, cwd) => {
  const { pushSession } = await import('../mods/transcripts/store/postgres/transfer.js')
  const moved = await pushSession(store, positionals[0]!, cwd, io.env)
  io.stdout.write(moved.lines > 0 ? `pushed session ${moved.sessionId}: ${moved.lines} line${moved.lines === 1 ? '' : 's'} from ${moved.path}\n` : `session ${moved.sessionId}: the session store has all of ${moved.path} already\n`)
})

export const sessionsPull: CommandRun = async ({ values, positionals, io }) => move(values, io, async (store) => {
  const { pullSession } = await import('../mods/transcripts/store/postgres/transfer.js')
  const moved = await pullSession(store, positionals[0]!, io.env)
  io.stdout.write(moved.lines > 0 ? `pulled session ${moved.sessionId}: ${moved.lines} line${moved.lines === 1 ? '' : 's'} into ${moved.path}\n` : `session ${moved.sessionId}: ${moved.path} has all the session store has already\n`)
})

async function move(values: Values, io: Io, run: (store: PostgresStore, cwd: string) => Promise<void>): Promise<number> {
  const cwd = resolve(io.cwd, typeof values.cwd === 'string' ? values.cwd : '.')
  const store = await reviewSessionStore(values, io, cwd)
  if (!store) throw usageError('no session store: give --session-store URL, or set sessionStore: { postgres: URL } in the config')
  try {
    await run(store, cwd)
  } finally {
    await store.close()
  }
  return 0
}
