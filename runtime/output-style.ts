import type { Session } from '../core/loop/session.js'

/** init's `output_style`: the name of the style in force, or `default`. */
export function outputStyleOf(session: Session): string {
  const active = session.host.capabilities.get('outputStyle')
  return typeof active === 'function' ? active(session.root.id) : 'default'
}

/** init's `available_output_styles`: the styles to choose from, else only the one in force. */
export function availableOutputStyles(session: Session): string[] {
  const list = session.host.capabilities.get('outputStyleList')
  return list ? list.names(session.root.id) : [outputStyleOf(session)]
}
