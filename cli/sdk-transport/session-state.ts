import { uuid } from '../../core/random.js'
import type { Wire } from './wire.js'

type State = 'running' | 'idle'

/**
 * The `system/session_state_changed` lines the Agent SDK asks for with
 * CLAUDE_CODE_SDK_READS_SESSION_STATE=1. Without an `idle` the SDK takes the first result as the
 * end of the run and closes stdin then: a single-prompt query could not answer a control
 * (mcpServerStatus, getContextUsage, …) called after its result. Only changes are sent.
 */
export class SessionState {
  private state: State | undefined

  constructor(private readonly wire: Wire, private readonly enabled: boolean, private readonly sessionId: () => string | undefined) {}

  set(state: State): void {
    if (!this.enabled || state === this.state) return
    this.state = state
    this.wire.send({ type: 'system', subtype: 'session_state_changed', state, sdk_host_only: true, uuid: uuid(), session_id: this.sessionId() ?? '' })
  }
}
