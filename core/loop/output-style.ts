import type { Session } from './session.js'

declare module '../mod/capabilities.js' {
  interface Capabilities {
    /** The output style in force in a session, by its id (the mod that reads output styles provides it); without it, `default`. */
    outputStyle: (sessionId: string) => string
  }
}

/** init's `output_style`: the name of the style in force, or `default`. */
export function outputStyleOf(session: Session): string {
  const active = session.host.capabilities.get('outputStyle')
  return typeof active === 'function' ? active(session.root.id) : 'default'
}
