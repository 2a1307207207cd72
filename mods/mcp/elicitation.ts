import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js'
import { describeError } from '../../core/errors.js'
import type { ElicitationRequest, ElicitationResult, OnElicitation } from '../../runtime/sdk-options.js'
import type { ElicitationHookRequest } from '../_shared/elicitation-hooks.js'

const ACTIONS = new Set(['accept', 'decline', 'cancel'])

/** The Elicitation and ElicitationResult hooks of the session (the `elicitationHooks` capability), as a connection reaches them. */
export type ElicitationHooks = (req: Omit<ElicitationHookRequest, 'sessionId'>) => Promise<ElicitationResult | undefined>

/**
 * A server's request for the user's input (elicitation), put to whoever answers it: an
 * Elicitation settings hook first, which may answer for the user; then query()'s `onElicitation`,
 * or the Agent SDK's through the transport (an `elicitation` control request), whose answer
 * ElicitationResult hooks may change. With no one to answer, a failed answer, or an answer that is
 * none of accept, decline and cancel, the server hears `cancel`, as Claude Code answers with no
 * one to ask, and its call goes on.
 */
export async function answerElicitation(
  server: string, params: ElicitRequest['params'], extra: { signal: AbortSignal; requestId: string | number },
  elicit: OnElicitation | undefined, warn: (text: string) => void, hooks?: ElicitationHooks,
): Promise<ElicitResult> {
  const request: ElicitationRequest = {
    serverName: server, message: params.message,
    ...(params.mode === 'url'
      ? { mode: 'url', url: params.url, elicitationId: params.elicitationId }
      : { mode: 'form', requestedSchema: params.requestedSchema as Record<string, unknown> }),
    ...permissionDisplay(params._meta),
  }
  const hooked = (stage: 'before' | 'after', answer?: ElicitationResult) => hooks?.({ stage, request, ...(answer ? { answer } : {}) }).catch((err: unknown) => {
    warn(`${server}: the ${stage === 'before' ? 'Elicitation' : 'ElicitationResult'} hooks failed (${describeError(err)}); the request goes on without them`)
    return answer
  })
  const answeredByHook = await hooked('before')
  if (answeredByHook) return answerOf(answeredByHook)
  if (!elicit) return { action: 'cancel' }
  const answer = await askHost(server, request, extra, elicit, warn)
  return answerOf((await hooked('after', answer)) ?? answer)
}

/** The host's answer, `cancel` when it fails or answers something else. */
async function askHost(server: string, request: ElicitationRequest, extra: { signal: AbortSignal; requestId: string | number }, elicit: OnElicitation, warn: (text: string) => void): Promise<ElicitationResult> {
  let answer: Awaited<ReturnType<OnElicitation>>
  try {
    answer = await elicit(request, { signal: extra.signal, requestId: String(extra.requestId) })
  } catch (err) {
    if (!extra.signal.aborted) warn(`${server}: its request for the user's input could not be answered (${describeError(err)}); the server hears cancel`)
    return { action: 'cancel' }
  }
  if (answer === null || answer === undefined) return { action: 'cancel' }
  if (!ACTIONS.has(answer.action)) {
    warn(`${server}: its request for the user's input was answered ${JSON.stringify(answer).slice(0, 200)}, not accept, decline or cancel; the server hears cancel`)
    return { action: 'cancel' }
  }
  return answer
}

/** What goes back to the server: the form's content only with an accept. */
function answerOf(answer: ElicitationResult): ElicitResult {
  return answer.action === 'accept' && answer.content ? { action: 'accept', content: answer.content } : { action: answer.action }
}

/** The server's `_meta['anthropic/permissionDisplay']`: the header, label and subtitle a host may show. */
function permissionDisplay(meta: unknown): Pick<ElicitationRequest, 'title' | 'displayName' | 'description'> {
  const d = (meta as Record<string, unknown> | undefined)?.['anthropic/permissionDisplay'] as Record<string, unknown> | undefined
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined)
  const [title, displayName, description] = [text(d?.title), text(d?.displayName), text(d?.description)]
  return { ...(title ? { title } : {}), ...(displayName ? { displayName } : {}), ...(description ? { description } : {}) }
}
