import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { TurnEnding } from '../events/types.js'
import { envInteger, envNames } from '../env.js'
import { attach } from './attach.js'
import type { SDKMessage } from './messages.js'
import type { Session } from './session.js'

export type StopVerdict = { kind: 'end' } | { kind: 'halt'; reason: string; ending?: TurnEnding } | { kind: 'again'; content: ContentBlockParam[] }

/** The STOP_HOOK_BLOCK_CAP setting (default 8): how many continuations one turn may take; 0 lifts the cap. */
export function stopContinueCap(env: Record<string, string | undefined>): number {
  return envInteger(env, 'STOP_HOOK_BLOCK_CAP', 8)
}

/**
 * The point where a successful turn would end (spec loop-and-sdk §3.6): `turn.stop` may let it
 * end, halt it, or continue it with a new user message. Continuations are counted per turn;
 * past the cap the turn ends anyway with a warning, so a handler that always continues cannot
 * keep a turn alive forever.
 */
export class StopGate {
  private continues = 0

  constructor(private readonly session: Session, private readonly turnId: string) {}

  async *check(answer: string): AsyncGenerator<SDKMessage, StopVerdict, undefined> {
    const { session } = this
    const { bus } = session.host
    if (!bus.has('turn.stop')) return { kind: 'end' }
    const r = await bus.emit('turn.stop', {
      turnId: this.turnId, answer, stopHookActive: this.continues > 0, ...(session.agent ? { agentId: session.agent.agentId } : {}),
    })
    if (r.decision === 'halt') return { kind: 'halt', reason: r.reason, ...(r.ending ? { ending: r.ending } : {}) }
    if (r.decision !== 'continue') return { kind: 'end' }
    const cap = stopContinueCap(session.env)
    if (cap > 0 && this.continues >= cap) {
      yield session.stamp({
        type: 'system', subtype: 'informational', level: 'warning',
        content: `A hook blocked the turn from ending ${this.continues + 1} consecutive times; overriding and ending the turn. Stop hooks should check stop_hook_active in their input and return success while it is true. Set ${envNames('STOP_HOOK_BLOCK_CAP').join(' or ')} to raise this limit (0 lifts it).`,
      })
      return { kind: 'end' }
    }
    this.continues++
    const content = await attach(session, 'stop_hook', [r.reason], { kind: 'hook', event: 'turn.stop' })
    // A mod that drops the text still leaves the continuation a valid user message.
    return { kind: 'again', content: content.length > 0 ? content : [{ type: 'text', text: 'Continue.' }] }
  }
}
