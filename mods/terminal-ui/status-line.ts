import type { SDKMessage } from '../../core/loop/messages.js'
import type { ModApi } from '../../core/mod/api.js'
import { describeError } from '../../core/errors.js'
import type { App } from './app.js'
import { StatusFacts, type StatusPlace } from './status-input.js'
import type { StatusCommand } from './status-command.js'
import { readStatusLineSetting } from './status-setting.js'

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
  /** The launch environment: where CLAUDE_CONFIG_DIR and MODLOOP_HOME are read. */
  env: Record<string, string | undefined>
  /** The model the session starts on: the stream names it only once a turn begins. */
  model(): string
  say(text: string, level: 'info' | 'warn' | 'error'): void
}

/**
 * Starts a session's status line: its setting is read off the start path, and the runner is loaded
 * only when a `statusLine` is set, so a session without one pays for nothing but that read.
 */
export function startStatusLine(ctx: StatusLineContext): SessionStatusLine {
  const facts = new StatusFacts(ctx.place)
  let command: StatusCommand | undefined
  let disposed = false
  void (async () => {
    let flags: unknown = {}
    try {
      flags = await ctx.$.settings.read({ source: 'flag' })
    } catch {
      // A host without launch flags: the settings files alone apply.
    }
    const { setting, warnings } = await readStatusLineSetting({ cwd: ctx.cwd, places: {}, flags, env: ctx.env })
    for (const w of warnings) ctx.say(w, 'warn')
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
  })().catch((err: unknown) => ctx.say(`the statusLine setting could not be read: ${describeError(err)}`, 'warn'))
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
