import { attach } from './attach.js'
import type { Session } from './session.js'
import { joinHistory } from './unshown.js'

/**
 * Moves the main session's working directory to `dir` (`$.session.move`, EnterWorktree and
 * ExitWorktree): tool calls from the next request on, subagents started after, and
 * `$.session.cwd()` work there. The model learns of it in an environment update before its next
 * request, as Claude Code tells it; `context` adds lines to that update (what the directory is).
 */
export function moveSession(session: Session, dir: string, context: readonly string[] = []): void {
  const root = session.root
  if (dir === root.cwd) return
  root.envUpdates.push(['# Environment update', ` - Primary working directory: ${dir} (was ${root.cwd})`, ...context.map((line) => ` - ${line}`)].join('\n'))
  root.cwd = dir
}

/** Before a request of the main conversation: the environment updates of moves since the last one join the history, once. */
export async function deliverEnvUpdates(session: Session): Promise<void> {
  const root = session.root
  if (session.agent || root.envUpdates.length === 0) return
  const blocks = await attach(session, 'environment_update', root.envUpdates.splice(0), { kind: 'engine' })
  if (blocks.length > 0) await joinHistory(session, blocks)
}
