import type { Usage } from '../core/events/types.js'
import { ModelApiError } from '../core/model/types.js'
import { addUsage, zeroUsage } from '../core/loop/messages.js'
import type { Session } from '../core/loop/session.js'
import { resolveAlias, smallFastModel } from '../core/model/aliases.js'
import { maxOutputTokens } from '../core/model/pricing.js'
import { requestFor } from '../core/loop/request.js'
import type { CompleteRequest, CompleteResult } from '../core/mod/contracts.js'


/** `$.model.complete`: one tool-less completion through the session's model; its cost counts in the session's. */
export async function complete(session: Session, req: CompleteRequest, signal?: AbortSignal): Promise<CompleteResult> {
  const model = req.model ? resolveAlias(req.model, session.env) : smallFastModel(session.env)
  const usage = zeroUsage()
  let text = ''
  try {
    const request = await requestFor(session, {
      // Never past the model's own output cap: the API refuses such a request outright (a 4,096-token model asked for a summary of 8,192).
      model, max_tokens: Math.min(req.maxTokens ?? 1024, maxOutputTokens(model)),
      ...(req.system ? { system: [{ type: 'text', text: req.system }] } : {}),
      messages: [{ role: 'user', content: req.prompt }],
    }, req.system ? [{ id: 'complete', scope: 'session' }] : [], undefined, 'complete')
    const events = session.llm.stream(request, { signal })
    for await (const ev of events) {
      if (ev.type === 'message_start') addUsage(usage, ev.message.usage as Partial<Usage>)
      else if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') text += ev.delta.text
      else if (ev.type === 'message_delta' && ev.usage) usage.output_tokens = ev.usage.output_tokens ?? usage.output_tokens
    }
  } catch (err) {
    if (signal?.aborted) return { isAnswered: false, reason: 'aborted', usage }
    const e = err instanceof ModelApiError ? err : undefined
    return { isAnswered: false, reason: 'api-error', status: e?.status ?? null, error: e?.type ?? 'unknown', usage }
  } finally {
    session.account(model, usage)
  }
  return text ? { isAnswered: true, text, usage } : { isAnswered: false, reason: 'empty-reply', usage }
}
