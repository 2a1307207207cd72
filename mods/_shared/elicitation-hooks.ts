import type { ElicitationRequest, ElicitationResult } from '../../runtime/sdk-options.js'

declare module '../../core/mod/capabilities.js' {
  interface Capabilities {
    /**
     * The Elicitation and ElicitationResult settings hooks, provided by the mod that runs settings
     * hooks and fired by the mod that connects MCP servers. `before`: an Elicitation hook may answer
     * the server's request itself (exit 2 declines it); undefined leaves it to the host. `after`:
     * an ElicitationResult hook may change the host's answer (exit 2 makes it a decline); it
     * resolves to the answer that goes back.
     */
    elicitationHooks: (req: ElicitationHookRequest) => Promise<ElicitationResult | undefined>
  }
}

export interface ElicitationHookRequest {
  sessionId: string
  stage: 'before' | 'after'
  request: ElicitationRequest
  /** `after`: the host's answer. */
  answer?: ElicitationResult
}
