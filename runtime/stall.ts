import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages'
import { watching } from '../core/bus/watchdog.js'
import { ModloopError } from '../core/errors.js'
import type { SDKMessage, SDKResultMessage } from '../core/loop/messages.js'
import type { Session } from '../core/loop/session.js'
import { TurnEnd } from '../core/loop/turn-end.js'
import { recordUnshown } from '../core/loop/unshown.js'

export const STALLED = Symbol('stalled')

// One process listener for every pending wait, so many sessions add no listener each.
const waiting = new Set<() => void>()
const onDrain = (): void => {
  for (const wake of [...waiting]) wake()
}

/**
 * Settles as `p` does, or with STALLED when the event loop drains while `p` is still pending:
 * nothing is left that could ever settle it (a promise a mod never settles, beneath handlers
 * whose budgets no longer run). Node emits `beforeExit` then; answering it schedules more work,
 * so the run can still end with a result instead of the process exiting mid-turn. It listens on
 * `process` only while a wait is pending, and never for errors.
 */
export function unlessStalled<T>(p: Promise<T>): Promise<T | typeof STALLED> {
  let wake!: () => void
  const drained = new Promise<typeof STALLED>((resolve) => { wake = () => resolve(STALLED) })
  if (waiting.size === 0) process.on('beforeExit', onDrain)
  waiting.add(wake)
  const done = () => {
    waiting.delete(wake)
    if (waiting.size === 0) process.off('beforeExit', onDrain)
  }
  return Promise.race([p, drained]).finally(done)
}

/**
 * Ends a turn that stalled with an error result naming what it waited on. Tool calls left
 * without their results get error ones, so the history and the transcript stay whole.
 */
export async function* endStalled(session: Session): AsyncGenerator<SDKMessage, SDKResultMessage, undefined> {
  const on = watching()
  const error = new ModloopError('MODLOOP_ERR_STALLED', `the turn stopped making progress: nothing was left running and no result came${on.length > 0 ? `; it was waiting on ${on.join(', ')}` : ''}`)
  session.turnAbort?.abort(error)
  const answers = danglingAnswers(session, error.message)
  if (answers.length > 0) {
    session.messages.push({ role: 'user', content: answers })
    await recordUnshown(session, answers, false)
  }
  return yield* new TurnEnd(session, session.turnId ?? 'stalled').finish({ subtype: 'error_during_execution', terminal: 'turn_stalled', isError: true, errors: [`${error.code}: ${error.message}`] })
}

function danglingAnswers(session: Session, why: string): ToolResultBlockParam[] {
  const last = session.messages.at(-1)
  if (last?.role !== 'assistant' || typeof last.content === 'string') return []
  return last.content.flatMap((b) => (b.type === 'tool_use' ? [{ type: 'tool_result' as const, tool_use_id: b.id, content: `Not run to completion: ${why}`, is_error: true }] : []))
}
