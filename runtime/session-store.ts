import type { Session } from '../core/loop/session.js'

/** Where the session is kept: its store's location, or nowhere when the host keeps no sessions. */
export function locationOf(session: Session): string {
  return session.options.builtins?.sessionStore?.locationOf(session.cwd, session.id, session.options.env) ?? ''
}

/** Takes the session in its store for this process (unless it is not kept: persistSession false). */
export async function hold(session: Session, location: string): Promise<void> {
  const store = session.options.builtins?.sessionStore
  session.location = location
  if (!store || session.options.persistSession === false || location === '') return
  session.release = await store.hold(location, session.id)
}

