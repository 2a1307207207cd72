import type { ElicitationAnswer, ElicitationHookRequest } from '../_shared/elicitation-hooks.js'
import type { HookBridge } from './bridge.js'

/**
 * Elicitation and ElicitationResult, fired by the mcp mod around a server's request for the user's
 * input (spec settings-hooks 2.28), matched on the server's name. An Elicitation hook that answers
 * (`hookSpecificOutput.action`, and `content` with an accept) answers for the user, who is not
 * asked; its exit 2 declines the request. An ElicitationResult hook sees the answer before it goes
 * back and may replace its action and content; its exit 2 makes it a decline. Neither takes a
 * `permission_mode`, and their `systemMessage` and `continue` are not read.
 */
export async function fireElicitationHook(b: HookBridge | undefined, req: ElicitationHookRequest): Promise<ElicitationAnswer | undefined> {
  const event = req.stage === 'before' ? 'Elicitation' : 'ElicitationResult'
  if (!b?.has(event)) return req.answer
  const common = {
    mcp_server_name: req.server, ...(req.mode ? { mode: req.mode } : {}), ...(req.elicitationId ? { elicitation_id: req.elicitationId } : {}),
  }
  const fields = req.stage === 'before'
    ? { ...common, message: req.message, ...(req.url ? { url: req.url } : {}), ...(req.requestedSchema ? { requested_schema: req.requestedSchema } : {}) }
    : { ...common, action: req.answer?.action, ...(req.answer?.content ? { content: req.answer.content } : {}) }
  const r = await b.fire(event, fields, { noPermissionMode: true })
  const said = r.elicitation
  if (req.stage === 'before') return said?.action ? { action: said.action, ...(said.action === 'accept' && said.content ? { content: said.content } : {}) } : undefined
  if (!said) return req.answer
  const action = said.action ?? req.answer?.action ?? 'cancel'
  const content = action === 'accept' ? said.content ?? req.answer?.content : undefined
  return { action, ...(content ? { content } : {}) }
}
