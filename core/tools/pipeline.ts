import type { Bus } from '../bus/bus.js'
import type { PermissionUpdate, ToolCallInput, ToolCallResult, TurnEnding } from '../events/types.js'
import { describeError } from '../errors.js'
import type { ToolRegistry } from './registry.js'
import { sendableContent, validateInput, type LinesChanged, type Tool, type ToolOutput, type ToolResultContent, type Validation } from './tool.js'
import { whyUnserializable } from './serializable.js'
import { permit } from './permit.js'

export interface ToolUse {
  id: string
  name: string
  input: unknown
}

/** A call's input as checked against its tool's schema. */
export interface CheckedInput {
  tool: Tool
  valid: Validation<unknown>
}

export type PermissionResult =
  | { behavior: 'allow'; updatedInput?: Record<string, unknown>; updatedPermissions?: PermissionUpdate[] }
  | { behavior: 'deny'; message: string; interrupt?: boolean }

export type { PermissionUpdate }

/** What the approver is told about an ask, with the Agent SDK's names. */
export interface CanUseToolOptions {
  signal: AbortSignal
  toolUseID: string
  /** An id for this ask, unique in the session. */
  requestId: string
  agentID?: string
  decisionReason?: string
  suggestions?: PermissionUpdate[]
  blockedPath?: string
  /** For an MCP server's tool: the server and its source (`sdk`: one the application registered). */
  mcpServer?: { name: string; source: string }
  /** The tool asks the user something: only a person can answer, not a rule or a policy. */
  requiresUserInteraction?: true
}

/**
 * The approver of asks (the Agent SDK's `canUseTool`). Declared as a method so an approver typed
 * with the official SDK's wider options is accepted. `null` is no answer: the call is denied.
 */
export type CanUseTool = {
  approve(toolName: string, input: Record<string, unknown>, options: CanUseToolOptions): Promise<PermissionResult | null>
}['approve']

/** What one tool call runs against. */
export interface CallEnv {
  bus: Bus
  tools: ToolRegistry
  cwd: string
  sessionId: string
  signal: AbortSignal
  agentId?: string
  /** The model that asked for the calls. */
  model?: string
  canUseTool?: CanUseTool
  /** The mod whose `$` call raised this one, when its tool.call handlers are not to see it (`$.ui.ask`). */
  caller?: string
  onDenied?(denial: { tool_name: string; tool_use_id: string; tool_input: unknown }): void
  /** A running tool reported progress; reaches here at most once per PROGRESS_INTERVAL_MS per call. */
  onProgress?(progress: ToolProgress): void
  /** A tool that ran changed lines of files (ToolOutput.linesChanged), whatever handlers then made of its answer. */
  onLinesChanged?(lines: LinesChanged): void
}

export interface ToolProgress {
  toolUseId: string
  toolName: string
  /** Since the tool started running (after its permission check). */
  elapsedMs: number
  data: unknown
}

/** A tool may report as often as it likes; the loop hears of it no more often than this. */
export const PROGRESS_INTERVAL_MS = 1_000

export interface CallOutcome {
  toolUseId: string
  name: string
  input: unknown
  /** The structured result (what hooks see as tool_response). */
  result: unknown
  /** What the model reads. */
  text: string
  /** What the model is sent instead of `text`, when the answer holds images. */
  content?: ToolResultContent[]
  isError: boolean
  denied: boolean
  interrupted: boolean
  durationMs: number
  context?: string[]
  /** The tool's text that follows its result (ToolOutput.followUp). */
  followUp?: string
  /** A `defer` verdict held the call back: it did not run (see core/loop/defer.ts). */
  deferred?: true
  /** The turn ends once this batch is answered (core/loop/ending.ts `afterBatch`). */
  endAfterBatch?: EndAfterBatch
}

/**
 * Why a call ends the turn once its batch is answered: an approver denied it with `interrupt`
 * (the turn ends as an interrupt does), a tool.call handler halted (a hook's `continue: false`:
 * hook_stopped, with its reason), or the tool gave the turn's ending (StructuredOutput).
 */
export type EndAfterBatch = { kind: 'interrupt' } | { kind: 'halt'; reason: string } | { kind: 'ending'; ending: TurnEnding }

export const INTERRUPTED = '[Request interrupted by user for tool use]'
/** What follows an answer the person cut off while it streamed. */
export const INTERRUPTED_ANSWER = '[Request interrupted by user]'
export const DEFER_IGNORED = 'Not run: a permission check deferred this call, but a deferral is honoured only when it is the one tool call of a headless response. Call the tools one at a time.'
const RESERVED = new Set(['tool', 'tool_use_id', 'agentId', 'verdict'])

export function inputOf(e: ToolCallInput): Record<string, unknown> {
  const input: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(e)) if (!RESERVED.has(k)) input[k] = v
  return input
}

const textOf = (result: unknown): string => (typeof result === 'string' ? result : result === undefined ? '' : JSON.stringify(result) ?? '')

/**
 * Why a tool's answer cannot be sent or recorded (a circular object, a BigInt), or undefined when
 * it can: the answer goes into the stream, the transcript and the next request as JSON.
 */
function unserializable(r: { result: unknown; text?: unknown }): string | undefined {
  if (r.text !== undefined && typeof r.text !== 'string') return 'its text is not a string'
  return whyUnserializable(r.result)
}

/**
 * One tool call: name and input are checked, then `tool.call` runs with — beneath every mod —
 * the permission verdict (`tool.check`, then `canUseTool` for an ask) and the tool itself.
 */
export async function runToolCall(env: CallEnv, use: ToolUse, validated?: CheckedInput): Promise<CallOutcome> {
  const started = performance.now()
  const outcome = (fields: Partial<CallOutcome> & { text: string }): CallOutcome => ({
    toolUseId: use.id, name: use.name, input: use.input, result: fields.text, isError: false, denied: false,
    interrupted: false, durationMs: performance.now() - started, ...fields,
  })
  if (env.signal.aborted) return outcome({ text: INTERRUPTED, isError: true, interrupted: true })
  const tool = env.tools.get(use.name)
  if (!tool) return outcome({ text: `Error: No such tool available: ${use.name}. Available tools: ${env.tools.names().join(', ')}`, isError: true })
  // The executor checked the input already, to learn whether the call is read-only: not again, unless the tool was replaced since.
  const checked = validated?.tool === tool ? validated.valid : validateInput(tool, use.input, { fromModel: true, at: env })
  if (!checked.ok) return outcome({ text: await invalid(env, tool.name, use, checked.message), isError: true })

  let finalInput: unknown = checked.input
  let ran: ToolCallResult | undefined
  let deferred = false
  let interruptTurn = false
  // What the permission check refused: a rewrite of the model's input (a PreToolUse hook's) when there was one.
  let deniedInput: unknown
  // The reserved names are the event's, never the model's: a `verdict` in the model's input is dropped, not believed.
  const { verdict: _fromModel, ...given } = checked.input as Record<string, unknown>
  const e: ToolCallInput = { ...given, tool: tool.name, tool_use_id: use.id, ...(env.agentId ? { agentId: env.agentId } : {}) }
  const core = async (e2: ToolCallInput): Promise<ToolCallResult> => {
    const valid = e2 === e ? checked : validateInput(tool, inputOf(e2), { at: env })
    if (!valid.ok) return { isError: true, result: valid.message }
    const verdict = await permit(env, tool, use.id, valid.input as Record<string, unknown>, e2.verdict)
    if ('deny' in verdict) {
      deniedInput = valid.input
      interruptTurn = verdict.interrupt === true
      return { deny: verdict.deny }
    }
    if ('defer' in verdict) {
      deferred = true
      return { isError: true, result: DEFER_IGNORED }
    }
    finalInput = verdict.input
    ran = await runTool(env, tool, use.id, verdict.input)
    // Handlers above (PostToolUse hooks) describe the call as it ran, not as they passed it down.
    return verdict.input === valid.input ? ran : { ...ran, ranWith: verdict.input }
  }
  let r: ToolCallResult
  try {
    r = await env.bus.emit('tool.call', e, core, { signal: env.signal, caller: env.caller })
  } catch (err) {
    r = { isError: true, result: `Error: ${describeError(err)}` }
  }
  if (env.signal.aborted) return outcome({ input: finalInput, text: INTERRUPTED, isError: true, interrupted: true })
  if (deferred) return outcome({ input: finalInput, text: DEFER_IGNORED, isError: true, deferred: true })
  if ('deny' in r) {
    env.onDenied?.({ tool_name: tool.name, tool_use_id: use.id, tool_input: deniedInput ?? finalInput })
    const context = r.context?.filter((c) => typeof c === 'string' && c.length > 0)
    return outcome({ input: finalInput, result: r.deny, text: r.deny, isError: true, denied: true, ...(context?.length ? { context } : {}), ...endOf(r, interruptTurn) })
  }
  const bad = unserializable(r)
  if (bad) {
    const text = `Error: ${tool.name} returned a result that cannot be sent: ${bad}`
    return outcome({ input: finalInput, result: text, text, isError: true, ...endOf(r) })
  }
  // A note on how the input was read (Validation.note) follows what the tool answered.
  const text = withNote(r.text ?? textOf(r.result), r.isError === true ? undefined : checked.note)
  const content = contentOf(r, text, ran)
  return outcome({
    // A tool that gave only text has that text as its structured result too.
    input: finalInput, result: r.result === undefined ? text : r.result, text, ...(content ? { content } : {}), isError: r.isError === true,
    context: r.context?.filter((c) => typeof c === 'string' && c.length > 0), ...endOf(r),
    ...(typeof r.followUp === 'string' && r.followUp !== '' ? { followUp: r.followUp } : {}),
  })
}

/** The error the model reads for input that failed its tool's schema, as tool.invalid handlers left it. */
async function invalid(env: CallEnv, tool: string, use: ToolUse, message: string): Promise<string> {
  if (!env.bus.has('tool.invalid')) return message
  const e = { tool, tool_use_id: use.id, input: use.input, message, ...(env.agentId ? { agentId: env.agentId } : {}) }
  return (await env.bus.emit('tool.invalid', e, undefined, { signal: env.signal, caller: env.caller })).message
}

const withNote = (text: string, note: string | undefined): string => (note ? `${text}\n\n${note}` : text)

/**
 * The blocks to send for a result that has them. A handler that put another text in place of the
 * tool's (a budget that moved it to a file, a hook) has its text sent, then the tool's images.
 */
function contentOf(r: Answered, text: string, ran: ToolCallResult | undefined): ToolResultContent[] | undefined {
  const content = sendableContent(r.content)
  if (!content) return undefined
  const tool = ran && !('deny' in ran) ? ran : undefined
  const isToolsOwn = tool !== undefined && r.content === tool.content
  if (isToolsOwn && text !== (tool.text ?? textOf(tool.result))) return [{ type: 'text', text }, ...content.filter((b) => b.type !== 'text')]
  return content
}

type Answered = Exclude<ToolCallResult, { deny: string }>

/** What of a call's answer ends the turn after its batch, strongest first: an interrupt, a halt, the tool's ending. */
function endOf(r: ToolCallResult, interrupt = false): { endAfterBatch?: EndAfterBatch } {
  if (interrupt) return { endAfterBatch: { kind: 'interrupt' } }
  if (typeof r.halt === 'string') return { endAfterBatch: { kind: 'halt', reason: r.halt } }
  if (!('deny' in r) && r.endTurn) return { endAfterBatch: { kind: 'ending', ending: r.endTurn } }
  return {}
}

async function runTool(env: CallEnv, tool: Tool, toolUseId: string, input: unknown): Promise<ToolCallResult> {
  const began = performance.now()
  let reported = -Infinity
  let done = false
  const progress = (data: unknown) => {
    const now = performance.now()
    // A report after the call returned would follow its result; it is dropped.
    if (done || !env.onProgress || now - reported < PROGRESS_INTERVAL_MS) return
    reported = now
    env.onProgress({ toolUseId, toolName: tool.name, elapsedMs: now - began, data })
  }
  try {
    const out = outputOf(await tool.call(input, { signal: env.signal, cwd: env.cwd, sessionId: env.sessionId, toolUseId, agentId: env.agentId, model: env.model, progress }), tool.name)
    if (out.linesChanged && !out.isError) env.onLinesChanged?.(out.linesChanged)
    const extra = { ...(out.endTurn ? { endTurn: out.endTurn } : {}), ...(out.content ? { content: out.content } : {}), ...(out.followUp ? { followUp: out.followUp } : {}), ...(out.context ? { context: out.context } : {}) }
    return out.isError ? { isError: true, result: out.result, text: out.text, ...extra } : { result: out.result, text: out.text, ...extra }
  } catch (err) {
    return { isError: true, result: `Error: ${tool.name} failed: ${describeError(err)}` }
  } finally {
    done = true
  }
}

/** A bare string stands for both result and text; anything else that is not an object is refused. */
function outputOf(out: unknown, name: string): ToolOutput {
  if (typeof out === 'string') return { result: out, text: out }
  if (typeof out !== 'object' || out === null) throw new Error(`${name} returned ${out === null ? 'null' : typeof out}, not { result, text? } or a string`)
  return out as ToolOutput
}
