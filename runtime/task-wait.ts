import type { InputQueue, QUEUED } from '../core/loop/input-queue.js'
import type { SDKMessage, SDKUserMessage } from '../core/loop/messages.js'
import type { Session } from '../core/loop/session.js'
import { STALLED, unlessStalled } from './stall.js'

/**
 * Waits for the next prompt of the session: what the caller sends, or the report of a background
 * task that ended, or QUEUED when a mod submitted prompts meanwhile. While it waits, what tasks announce (task_updated, task_notification,
 * background_tasks_changed) is recorded and yielded. Once the input has ended only running
 * background tasks and mods' holds ($.session.hold) keep it waiting: `maxWaitMs` bounds that, and the session's abort signal, or
 * an event loop with nothing left to run (a task that can never end), ends it at once. Ending the
 * wait that way stops the tasks: their ends are shown, their reports not run.
 */
export async function* nextPrompt(session: Session, queue: InputQueue, maxWaitMs?: number): AsyncGenerator<SDKMessage, SDKUserMessage | typeof QUEUED | undefined, undefined> {
  const outer = session.options.abortController?.signal
  let timer: NodeJS.Timeout | undefined
  let onAbort: (() => void) | undefined
  let ranOut = false
  const giveUp = new Promise<'give-up'>((resolve) => {
    onAbort = () => resolve('give-up')
    if (outer?.aborted) return resolve('give-up')
    outer?.addEventListener('abort', onAbort, { once: true })
    // Only tasks can keep an ended input waiting; a caller still sending is waited for as long as it likes.
    if (maxWaitMs !== undefined && queue.isEnded) {
      timer = setTimeout(() => { ranOut = true; resolve('give-up') }, maxWaitMs)
      // Said only when nothing waits to be taken: the wait is real.
      if (queue.waiting().length === 0 && session.queued.length === 0) tellWaiting(session, maxWaitMs)
    }
  })
  try {
    const taken = yield* shown(session, session.drainWhile(Promise.race([unlessStalled(queue.take()), giveUp])))
    if (taken !== 'give-up' && taken !== STALLED) return taken
    if (ranOut) session.options.log?.(`stopped waiting after ${seconds(maxWaitMs!)} (--max-wait-tasks): ${session.tasks.list().length > 0 ? 'the background tasks still running are stopped' : 'what held the run open is let go'}`)
    if (taken === STALLED && session.tasks.list().length > 0) session.options.log?.('the background tasks stopped making progress: nothing was left running; they are stopped')
  } finally {
    clearTimeout(timer)
    if (onAbort) outer?.removeEventListener('abort', onAbort)
  }
  yield* stopTasks(session, queue)
  return undefined
}

/**
 * Says why a run whose prompt is answered has not ended (once per wait that has tasks or holds to
 * wait for): a background server the model started would otherwise hold `-p` for minutes without a word.
 */
function tellWaiting(session: Session, maxWaitMs: number): void {
  const running = session.tasks.list().filter((t) => t.background)
  const held = session.tasks.held()
  if (running.length > 0) {
    const named = running.slice(0, 3).map((t) => `${t.id}: ${t.description}`).join('; ') + (running.length > 3 ? `; and ${running.length - 3} more` : '')
    session.options.log?.(`waiting for ${running.length} background task${running.length === 1 ? '' : 's'} to end (${named}); at most ${seconds(maxWaitMs)} (--max-wait-tasks)`)
  }
  if (held.length > 0) session.options.log?.(`waiting while held open (${held.join('; ')}); at most ${seconds(maxWaitMs)} (--max-wait-tasks)`)
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`

/** Stops every running task and shows how they ended; the reports they queue are dropped, as is what waits with them. */
export async function* stopTasks(session: Session, queue: InputQueue): AsyncGenerator<SDKMessage, void, undefined> {
  session.tasks.deliver = undefined
  yield* shown(session, session.drainWhile(session.tasks.stopAll()))
  // Dropped before the input ends, so a take still pending finds nothing to return.
  for (const left of queue.cancel()) session.options.log?.(`a queued prompt (${left}) was dropped: the session stopped waiting for its tasks`)
  queue.holdWhile(() => false)
  queue.end()
}

/** Relays what the outbox yields while `work` runs, each recorded (session.message) before the caller sees it. */
async function* shown<T>(session: Session, drained: AsyncGenerator<SDKMessage, T, undefined>): AsyncGenerator<SDKMessage, T, undefined> {
  const record = session.host.bus.has('session.message')
  for (;;) {
    const next = await drained.next()
    if (next.done) return next.value
    if (record) await session.host.bus.emit('session.message', { message: next.value, shown: true })
    yield next.value
  }
}
