import type { SDKMessage } from '../../core/loop/messages.js'
import type { ModApi } from '../../core/mod/api.js'
import { describeError } from '../../core/errors.js'
import type { App } from './app.js'
import { StatusFacts, type StatusPlace } from './status-input.js'
import type { StatusCommand } from './status-command.js'
import '../_shared/status-line-setting.js'

/** A session's custom status line, from its start to its end. */
export interface SessionStatusLine {
  /** A stream message: the facts it carries, and a run when they changed. */
  onMessage(m: SDKMessage): void
  /** Something the input does not carry changed (the permission mode): run again. */
  refresh(): void
  dispose(): void
}

export interface StatusLineContext {
  app: App
  $: ModApi
  place: StatusPlace
  cwd: string
  /** The model the session starts on: the stream names it only once a turn begins. */
  model(): string
  say(text: string, level: 'info' | 'warn' | 'error'): void
}

/**
 * Starts a session's status line. The setting comes with the settings' one read at session start
 * (the `statusLineSetting` capability), and the runner is loaded only when a `statusLine` is set,
 * so a session without one pays nothing.
 */
export function startStatusLine(ctx: StatusLineContext): SessionStatusLine {
  const facts = new StatusFacts(ctx.place)
  let command: StatusCommand | undefined
  let disposed = false
  // Chosen with the rest of the settings by the mod that reads them (settings-env), as the session started.
  const setting = ctx.$.capability.use('statusLineSetting')?.(ctx.place.sessionId)
  void (async () => {
    if (!setting) return
    const { StatusCommand } = await import('./status-command.js')
    if (disposed) return
    command = new StatusCommand(setting, {
      cwd: ctx.cwd,
      env: () => ctx.$.env.all(),
      input: () => {
        facts.model ||= ctx.model()
        return facts.input((ctx.$.session.usage() as { lines?: { added: number; removed: number } }).lines)
      },
      show: (lines) => {
        ctx.app.customStatus = lines.length > 0 ? { lines, padding: setting.padding } : undefined
        ctx.app.redraw()
      },
      failed: (text) => ctx.say(text, 'warn'),
    })
    command.refresh()
  })().catch((err: unknown) => ctx.say(`the status line could not be started: ${describeError(err)}`, 'warn'))
  return {
    onMessage: (m) => { if (facts.onMessage(m)) command?.refresh() },
    refresh: () => command?.refresh(),
    dispose: () => {
      disposed = true
      command?.dispose()
      ctx.app.customStatus = undefined
    },
  }
}
