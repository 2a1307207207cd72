import { uuid } from '../../core/random.js'
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'

/** A line the SDK writes: a user message, a control request or response, or anything else (reported). */
export type Incoming = Record<string, unknown> & { type?: unknown }

export interface ControlRequest { type: 'control_request'; request_id: string; request: Record<string, unknown> & { subtype: string } }

/** The SDK's answer to one of our control requests: `success` with its response, or `error`. */
type ControlAnswer = { subtype: 'success'; request_id: string; response?: Record<string, unknown> } | { subtype: 'error'; request_id: string; error: string }

/**
 * The stdio wire of the Agent SDK's transport: one JSON object a line both ways. Lines out go
 * whole, in order; our control requests (can_use_tool, hook_callback, mcp_message) wait for the
 * SDK's control_response with their request_id; an aborted one is withdrawn with a
 * control_cancel_request. When stdin closes, every request still waiting is answered with an error.
 */
export class Wire {
  private readonly pending = new Map<string, { resolve(r: Record<string, unknown>): void; reject(err: Error): void }>()
  private closedReason: string | undefined

  constructor(private readonly out: { write(text: string): unknown }, private readonly log: (line: string) => void) {}

  send(message: object): void {
    this.out.write(`${JSON.stringify(message)}\n`)
  }

  /** Sends a control request to the SDK and resolves with its response (rejects on an error answer). */
  request(request: Record<string, unknown> & { subtype: string }, signal?: AbortSignal): Promise<Record<string, unknown>> {
    if (this.closedReason) return Promise.reject(new Error(`${request.subtype}: ${this.closedReason}`))
    const id = uuid()
    return new Promise((resolve, reject) => {
      const done = () => {
        this.pending.delete(id)
        signal?.removeEventListener('abort', onAbort)
      }
      const onAbort = () => {
        done()
        this.send({ type: 'control_cancel_request', request_id: id })
        reject(signal?.reason instanceof Error ? signal.reason : new Error(`${request.subtype} was withdrawn`))
      }
      if (signal?.aborted) return onAbort()
      signal?.addEventListener('abort', onAbort, { once: true })
      this.pending.set(id, { resolve: (r) => { done(); resolve(r) }, reject: (e) => { done(); reject(e) } })
      this.send({ type: 'control_request', request_id: id, request })
    })
  }

  /** A control_response from the SDK: settles the request it answers; one answering nothing is logged. */
  answered(response: unknown): void {
    const r = response as ControlAnswer | undefined
    const waiting = r && typeof r.request_id === 'string' ? this.pending.get(r.request_id) : undefined
    if (!waiting) return this.log(`a control_response answers no request waiting for one (${JSON.stringify(response)?.slice(0, 200)}); ignored`)
    if (r!.subtype === 'error') waiting.reject(new Error(r!.error || 'the SDK answered with an error'))
    else waiting.resolve((r as { response?: Record<string, unknown> }).response ?? {})
  }

  /**
   * Answers one of the SDK's control requests. An error's `code` goes out as `error_code`, which
   * the SDK hands the application as the rejected Error's `errorCode`.
   */
  respond(requestId: string, outcome: { response: object } | { error: string; code?: string }): void {
    const response = 'error' in outcome
      ? { subtype: 'error', request_id: requestId, error: outcome.error, ...(outcome.code ? { error_code: outcome.code } : {}) }
      : { subtype: 'success', request_id: requestId, response: outcome.response }
    this.send({ type: 'control_response', response })
  }

  /** Reads stdin line by line; a line that is not a JSON object is reported and skipped. */
  async *lines(stdin: Readable): AsyncGenerator<Incoming, void, undefined> {
    const rl = createInterface({ input: stdin, crlfDelay: Infinity })
    try {
      for await (const line of rl) {
        if (line.trim() === '') continue
        let parsed: unknown
        try {
          parsed = JSON.parse(line)
        } catch {
          this.log(`stdin: a line that is not JSON was skipped: ${line.slice(0, 200)}`)
          continue
        }
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
          this.log(`stdin: a line that is not a JSON object was skipped: ${line.slice(0, 200)}`)
          continue
        }
        yield parsed as Incoming
      }
    } finally {
      this.close('the SDK closed its input, so no answer can come')
    }
  }

  /** No answer can come any more: every request still waiting fails. */
  close(reason: string): void {
    this.closedReason ??= reason
    for (const [, waiting] of this.pending) waiting.reject(new Error(reason))
    this.pending.clear()
  }
}
