import type { On } from '../../core/bus/types.js'
import type { ModApi } from '../../core/mod/api.js'
import type { HookBridge } from './bridge.js'

/**
 * Notification `idle_prompt` (spec §2.15): a while after a main turn ended, if no prompt came,
 * the session is waiting for the person. A headless `-p` run ends before that; a streaming
 * session (SDK, terminal) waits, and the notification fires once per wait.
 */
export function registerIdleHooks(on: On, idleMs: number, bridgeOf: ($: ModApi) => HookBridge | undefined): void {
  if (idleMs <= 0) return
  const timers = new Map<string, NodeJS.Timeout>()
  const stop = (sessionId: string) => {
    clearTimeout(timers.get(sessionId))
    timers.delete(sessionId)
  }
  on('turn.complete', async ($, e, next) => {
    const r = await next(e)
    const b = bridgeOf($)
    if (e.agentId || !b?.has('Notification')) return r
    const id = $.session.id() as string
    stop(id)
    const timer = setTimeout(() => {
      timers.delete(id)
      b.background(b.fire('Notification', { message: 'modloop is waiting for your input', notification_type: 'idle_prompt' }, { noPermissionMode: true }))
    }, idleMs)
    // A pending notification never keeps the process alive.
    timer.unref()
    timers.set(id, timer)
    return r
  })
  on('prompt.submit', async ($, e, next) => {
    stop($.session.id() as string)
    return next(e)
  })
  on('session.end', async (_$, e, next) => {
    stop(e.sessionId)
    return next(e)
  })
}
