/**
 * Where a session's lines go besides its local transcript. A store that keeps sessions on a server
 * (Postgres) attaches a journal to each location it holds, between `hold()` and the release; the
 * transcripts mod hands every line it writes to the journal of its location, and waits for it before
 * the message reaches the caller. Keyed by location: one process may hold many sessions (a worker).
 */
export interface Journal {
  /** Takes lines exactly as the local transcript got them (each ending in a newline); `agentId` for a subagent's transcript. */
  add(text: string, agentId?: string): void
  /** Resolves once every line added so far is stored; rejects, naming the cause, when they could not be (they are kept and sent again on the next flush). */
  flush(): Promise<void>
}

const journals = new Map<string, Journal>()

/** Attaches `journal` to a location; returns the detach. */
export function attachJournal(location: string, journal: Journal): () => void {
  journals.set(location, journal)
  return () => {
    if (journals.get(location) === journal) journals.delete(location)
  }
}

export function journalFor(location: string): Journal | undefined {
  return journals.get(location)
}
