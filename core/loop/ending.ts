import type { TurnEnding } from '../events/types.js'
import type { ModelApiError, ModelErrorType } from '../model/types.js'
import type { CallOutcome } from '../tools/pipeline.js'
import { cutShort } from './recovery.js'
import type { AssistantMessageError, ResultSubtype, TerminalReason } from './messages.js'

/** How a turn ends: its result's subtype, terminal reason and text. */
export interface Ending {
  subtype: ResultSubtype
  terminal: TerminalReason
  isError: boolean
  /** The result text; defaults to the last response's text. */
  text?: string
  errors?: string[]
  /** The call a `defer` verdict held back. */
  deferred?: { id: string; name: string; input: unknown }
  /** What the StructuredOutput tool accepted (outputFormat). */
  structuredOutput?: unknown
  /** The HTTP status of the API failure that ended the turn (null: no response at all). */
  apiErrorStatus?: number | null
  /** The kind of that failure, for the assistant message that stands for it. */
  apiError?: AssistantMessageError
  /** The local command that answered the turn without the model. */
  localCommand?: string
  /** The result is shown and not recorded (a side question's answer): see `UNRECORDED`. */
  unrecorded?: boolean
}

/**
 * The one place that decides, from what a round saw, whether the turn ends and how: the signal
 * and the budget after a response, a response that could not be recovered, and the end of a tool
 * batch (an interrupt, a halt, a tool's own ending, the turn limit). Recoveries and the stop
 * checks come first (round.ts); what is left is decided here.
 */

/** The ending a mod asked for (a tool's `endTurn`, a turn.stop halt's `ending`). */
export function endingOf(ending: TurnEnding): Ending {
  if ('error' in ending) return { subtype: ending.error.subtype, terminal: ending.error.terminal, isError: true, errors: [ending.error.message] }
  // The result text is the structured answer as JSON, as Claude Code gives it: `-p --json-schema` prints it.
  return { subtype: 'success', terminal: 'completed', isError: false, text: JSON.stringify(ending.structuredOutput) ?? '', structuredOutput: ending.structuredOutput }
}

/**
 * The text a turn ended by an API error answers with (its result); StopFailure hooks read the same
 * words. The API's message is kept; where it leaves the user without a next step (a refused key, a
 * model that cannot be reached, a failing server) a hint follows it, as Claude Code gives one.
 */
export function apiErrorText(error: { status?: number | null; message: string; type?: string }): string {
  // The API's own words for a 413 do not say what made the request big, or what to do.
  if (error.status === 413) return REQUEST_TOO_LARGE
  const hint = hintFor(error)
  return `API Error${error.status ? ` ${error.status}` : ''}: ${error.message}${hint ? ` - ${hint}` : ''}`
}

function hintFor(error: { status?: number | null; type?: string }): string | undefined {
  if (error.status === 401) return 'The API key was not accepted: check ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN or the apiKeyHelper setting'
  if (error.status === 403) return 'The credentials were refused for this request: check that the API key or token has access to it'
  if (error.status === 404 || error.type === 'model_not_found') return 'The model may not exist, or these credentials may not have access to it: choose another with --model'
  if (error.type === 'server_error' || error.type === 'overloaded') return 'The fault is on the server side and usually passes: try again in a moment; if it persists, check the API endpoint (ANTHROPIC_BASE_URL)'
  return undefined
}

const REQUEST_TOO_LARGE = 'Request too large (max 32MB). Accumulated images and attachments in the conversation pushed the request over the limit. Remove older images or compact the conversation.'

/** A request the API refused as too large (413) ends `image_error`, as in Claude Code: what makes one that big is images and documents. */
export function apiFailure(error: ModelApiError): Ending {
  return {
    subtype: 'success', terminal: error.status === 413 ? 'image_error' : 'api_error', text: apiErrorText(error), isError: true,
    apiErrorStatus: error.status, apiError: ASSISTANT_ERRORS.has(error.type) ? error.type as AssistantMessageError : 'unknown',
  }
}

/** Model failures that are kinds of SDKAssistantMessageError as they are; the rest (a dropped connection, a cut stream) are 'unknown'. */
const ASSISTANT_ERRORS = new Set<ModelErrorType>(['rate_limit', 'overloaded', 'server_error', 'authentication_failed', 'billing_error', 'invalid_request', 'model_not_found'])

/** A response arrived after the turn was interrupted or its budget ran out: its calls are answered as not run. */
export function stoppedEnding(r: { over: boolean; maxBudgetUsd?: number; toolUses: number; errored: boolean }): Ending {
  if (r.over) return { subtype: 'error_max_budget_usd', terminal: 'budget_exhausted', isError: true, errors: [`Reached the maximum budget ($${r.maxBudgetUsd})`] }
  return { subtype: 'error_during_execution', terminal: r.toolUses > 0 && !r.errored ? 'aborted_tools' : 'aborted_streaming', isError: true }
}

/**
 * A response without tool calls that no recovery is left for; undefined when it is an answer.
 * A response still cut short after its continuations ends the turn as an API failure does, with
 * Claude Code's words naming the cap (`outputLimit`), so `-p` prints why.
 */
export function unrecoveredEnding(step: { stopReason: string | null; error?: ModelApiError }, outputLimit: number): Ending | undefined {
  if (cutShort(step.stopReason)) {
    const message = `Claude's response exceeded the ${outputLimit} output token maximum. To configure this behavior, set the CLAUDE_CODE_MAX_OUTPUT_TOKENS environment variable.`
    return { subtype: 'success', terminal: 'api_error', text: apiErrorText({ message }), isError: true, apiErrorStatus: null, apiError: 'max_output_tokens' }
  }
  if (step.error) return apiFailure(step.error)
  if (step.stopReason === 'refusal') return { subtype: 'success', terminal: 'model_error', isError: true }
  return undefined
}

/**
 * Once a batch's calls all have their results: does the turn end before the next request? An
 * interrupt (the signal, or an approver's deny with `interrupt`), a handler's halt (a hook's
 * `continue: false`), a tool's own ending (StructuredOutput), or the turn limit. Undefined: go on.
 */
export function afterBatch(r: { outcomes: readonly CallOutcome[]; batchHalt?: string; aborted: boolean; num: number; maxTurns?: number }): Ending | undefined {
  const ends = r.outcomes.flatMap((o) => (o.endAfterBatch ? [o.endAfterBatch] : []))
  if (r.aborted || ends.some((e) => e.kind === 'interrupt')) return { subtype: 'error_during_execution', terminal: 'aborted_tools', isError: true }
  const halt = ends.find((e) => e.kind === 'halt')?.reason ?? r.batchHalt
  if (halt !== undefined) return { subtype: 'success', terminal: 'hook_stopped', text: halt, isError: false }
  const ending = ends.find((e) => e.kind === 'ending')
  if (ending) return endingOf(ending.ending)
  return turnLimit(r.num, r.maxTurns)
}

/** The turn limit reached after `num` requests: the turn ends before another one. Undefined: go on. */
export function turnLimit(num: number, maxTurns: number | undefined): Ending | undefined {
  if (maxTurns === undefined || num < maxTurns) return undefined
  return { subtype: 'error_max_turns', terminal: 'max_turns', isError: true, errors: [`Reached maximum number of turns (${maxTurns})`] }
}
