import { askedEffort, type EffortLevel } from '../model/capabilities.js'
import type { Session } from './session.js'

/**
 * The effort a session asks of `model`, before it is clamped to the model: CLAUDE_CODE_EFFORT_LEVEL,
 * else `--effort` / the `effort` option / `/effort`, else the settings' `effortLevel` (the
 * `settingsEffort` capability), else none (the model's default), as Claude Code ranks them.
 */
export function sessionEffort(session: Session, model: string): EffortLevel | undefined {
  const own = session.effort === null ? undefined : session.effort ?? session.host.capabilities.get('settingsEffort')?.(session.root.id, model)
  return askedEffort(own, session.env)
}
