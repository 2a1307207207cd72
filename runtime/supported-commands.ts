import type { Session } from '../core/loop/session.js'

export interface SlashCommand { name: string; description: string; argumentHint: string }

/** What `Query.supportedCommands` answers: every command registered in the session. */
export function supportedCommands(session: Session): SlashCommand[] {
  return [...session.commands.values()].map((c) => ({ name: c.name, description: c.description, argumentHint: c.argumentHint ?? '' }))
}
