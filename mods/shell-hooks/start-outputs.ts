import type { SessionSource } from '../../core/events/types.js'
import type { ModApi } from '../../core/mod/api.js'
import type { HookRunResult } from '../../hooks-runner/index.js'
import type { HookBridge } from './bridge.js'

/** Sets the session title: later hook inputs carry it as `session_title`, and the transcripts mod records it. */
export function applyTitle($: ModApi, b: HookBridge, title: string): void {
  b.title = title
  $.capability.use('transcripts')?.setTitle(b.init.sessionId, title)
}

/**
 * What SessionStart hooks return besides context (spec §2.3), once they all completed:
 * `sessionTitle` names the session (not on clear or compact); `initialUserMessage` becomes the
 * first turn of a session nobody drives at the keyboard (`-p`, SDK), before the prompt given;
 * `reloadSkills` has the commands mod read the command and skill directories again;
 * `watchPaths` is accepted and ignored, as modloop raises no FileChanged.
 */
export async function applyStartOutputs($: ModApi, b: HookBridge, r: HookRunResult, start: { source: SessionSource; isInteractive?: boolean }): Promise<void> {
  if (r.sessionTitle !== undefined && start.source !== 'clear' && start.source !== 'compact') applyTitle($, b, r.sessionTitle)
  if (r.initialUserMessage !== undefined && !start.isInteractive && start.source !== 'compact') {
    // Queued now, ahead of the prompt given; not awaited: it settles as its turn starts, and no turn
    // starts before session.start is done.
    $.prompt.submit({ text: r.initialUserMessage, asUser: true }).catch((err: Error) => $.log.debug(`${r.hookName} hook's initialUserMessage did not run: ${err.message}`))
  }
  if (r.reloadSkills) {
    const api = $.capability.use('commands')
    if (api) await api.reload()
    else $.log.debug(`${r.hookName} hook asked to reload skills, and no commands mod is loaded`)
  }
  if (r.watchPaths !== undefined) $.log.debug(`${r.hookName} hook returned watchPaths: ignored, as modloop raises no FileChanged`)
}
