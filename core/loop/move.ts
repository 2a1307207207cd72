import type { Session } from './session.js'

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
