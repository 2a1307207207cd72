import type { Session } from '../core/loop/session.js'

/** init's `output_style`: the name of the style in force, or `default`. */
export function outputStyleOf(session: Session): string {
  const active = session.host.capabilities.get('outputStyle')
  return typeof active === 'function' ? active(session.root.id) : 'default'
}
