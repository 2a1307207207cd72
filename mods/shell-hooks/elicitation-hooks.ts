import type { ElicitationHookRequest } from '../_shared/elicitation-hooks.js'
import type { ElicitationResult } from '../../runtime/sdk-options.js'
import type { HookBridge } from './bridge.js'

/**
 * Elicitation and ElicitationResult, fired by the mcp mod around a server's request for the user's
 * input (spec settings-hooks 2.28), matched on the server's name. An Elicitation hook that answers
 * (`hookSpecificOutput.action`, and `content` with an accept) answers for the user, who is not
 * asked; its exit 2 declines the request. An ElicitationResult hook sees the answer before it goes
 * back and may replace its action and content; its exit 2 makes it a decline. Neither takes a
 * `permission_mode`, and their `systemMessage` and `continue` are not read. The mcp mod keeps the
 * content of an accept only.
 */
export async function fireElicitationHook(b: HookBridge | undefined, req: ElicitationHookRequest): Promise<ElicitationResult | undefined> {
  const event = req.stage === 'before' ? 'Elicitation' : 'ElicitationResult'
  if (!b?.has(event)) return req.answer
  const { request: q, answer } = req
  const common = { mcp_server_name: q.serverName, ...(q.mode ? { mode: q.mode } : {}), ...(q.elicitationId ? { elicitation_id: q.elicitationId } : {}) }
  const fields = req.stage === 'before'
    ? { ...common, message: q.message, ...(q.url ? { url: q.url } : {}), ...(q.requestedSchema ? { requested_schema: q.requestedSchema } : {}) }
    : { ...common, action: answer?.action, ...(answer?.content ? { content: answer.content } : {}) }
  const said = (await b.fire(event, fields, { noPermissionMode: true })).elicitation
  if (req.stage === 'before') return said?.action ? { action: said.action, ...(said.content ? { content: said.content as ElicitationResult['content'] } : {}) } : undefined
  if (!said) return answer
  const content = said.content ?? answer?.content
  return { action: said.action ?? answer?.action ?? 'cancel', ...(content ? { content: content as ElicitationResult['content'] } : {}) }
}
