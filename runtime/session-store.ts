import { envTrue } from '../core/env.js'
import type { Session } from '../core/loop/session.js'

/** Where the session is kept: its store's location, or nowhere when the host keeps no sessions. */
export function locationOf(session: Session): string {
  return session.options.builtins?.sessionStore?.locationOf(session.cwd, session.id, session.options.env) ?? ''
}

/**
 * Whether the session is written at all: not with persistSession false, nor with Claude Code's
 * CLAUDE_CODE_SKIP_PROMPT_HISTORY, read when asked (settings `env` sets it once the session starts).
 */
export const isKept = (session: Session): boolean => session.options.persistSession !== false && !envTrue(session.env.CLAUDE_CODE_SKIP_PROMPT_HISTORY)

/** Takes the session in its store for this process (unless it is not kept). */
export async function hold(session: Session, location: string): Promise<void> {
  const store = session.options.builtins?.sessionStore
  session.location = location
  if (!store || !isKept(session) || location === '') return
  session.release = await store.hold(location, session.id)
}

