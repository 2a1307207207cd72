import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { CallOutcome } from '../tools/pipeline.js'
import { attach } from './attach.js'
import type { Session } from './session.js'

export interface BatchEnd {
  /** Context for the model, beside the batch's tool results. */
  context: ContentBlockParam[]
  /** Set when a handler stops the loop before the next request (hook_stopped). */
  halt?: string
}

/**
 * `tool.batch`: every call of one response has its result, and the next request is not sent yet
 * (spec loop-and-sdk §3.2, settings-hooks §2.14). Handlers may add context beside the results or
 * stop the loop; a failing handler changes nothing.
 */
export async function endBatch(session: Session, turnId: string, outcomes: readonly CallOutcome[]): Promise<BatchEnd> {
  const { bus } = session.host
  if (!bus.has('tool.batch') || outcomes.length === 0) return { context: [] }
  // A failing handler is skipped by the bus (its policy is open): what is beneath it stands.
  const r = await bus.emit('tool.batch', {
    turnId,
    calls: outcomes.map((o) => ({ tool: o.name, tool_use_id: o.toolUseId, input: o.input, result: o.text, isError: o.isError })),
    ...(session.agent ? { agentId: session.agent.agentId } : {}),
  })
  const texts = (r.context ?? []).filter((c) => typeof c === 'string' && c.length > 0)
  const context = texts.length > 0 ? await attach(session, 'tool_batch_context', texts, { kind: 'plugin', event: 'tool.batch' }) : []
  return { context, ...(typeof r.halt === 'string' ? { halt: r.halt } : {}) }
}
