import { describeError, ModloopError } from '../core/errors.js'
import type { Session } from '../core/loop/session.js'
import { stopProvenance } from './session-trace.js'

const SESSION_END_BOUND_MS = 1_500

/** Raises session.end (all handlers share one short wall-clock bound), then tears the mods down. */
export async function closeSession(session: Session, reason: 'other' | 'prompt_input_exit' | 'clear' = 'other', closeHost = true): Promise<void> {
  if (session.ended) return
  session.ended = true
  await raiseSessionEnd(session, reason)
  // What mods submitted and no turn will run now: each $.prompt.submit settles instead of hanging.
  for (const { text, started, ran } of session.queued.splice(0)) {
    started?.reject(new ModloopError('MODLOOP_ERR_NOT_RUN', '$.prompt.submit: the session ended before the prompt\'s turn started'))
    ran?.reject(new ModloopError('MODLOOP_ERR_NOT_RUN', `$.command.run: the session ended before ${text} ran`))
  }
  session.release?.()
  session.release = undefined
  stopProvenance(session)
  session.reloader?.close()
  if (closeHost) await session.host.close()
}

/**
 * Raises session.end for the session's current id. All handlers together share one short
 * wall-clock bound, raised to the longest own-time budget a handler declared: a mod that runs
 * work with a budget of its own (settings SessionEnd hooks) says so at registration.
 */
export async function raiseSessionEnd(session: Session, reason: 'other' | 'prompt_input_exit' | 'clear'): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const boundMs = Math.max(SESSION_END_BOUND_MS, ...session.host.bus.stack('session.end').map((s) => s.budgetMs))
  try {
    await Promise.race([
      session.host.bus.emit('session.end', { reason, sessionId: session.id }),
      new Promise((r) => { timer = setTimeout(r, boundMs) }),
    ])
  } catch (err) {
    session.options.log?.(`session.end failed: ${describeError(err)}`)
  } finally {
    clearTimeout(timer)
  }
}

