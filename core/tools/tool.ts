import type { DocumentBlockParam, ImageBlockParam, TextBlockParam, ToolReferenceBlockParam } from '@anthropic-ai/sdk/resources/messages'
import { z } from 'zod'
import type { TurnEnding } from '../events/types.js'
import { unquoteScalars } from './scalar-strings.js'

export interface ToolContext {
  readonly signal: AbortSignal
  readonly cwd: string
  readonly sessionId: string
  readonly toolUseId: string
  readonly agentId?: string
  /** The model whose call this is (a subagent's own); absent when a mod or the host calls the tool. */
  readonly model?: string
  /** Reports progress of a long call (shown by output mods). */
  progress(data: unknown): void
}

export interface CoercedInput {
  input: Record<string, unknown>
  note?: string
}

/** Where a call's input is read: the session's directory, and whose call it is. */
export type InputPlace = Pick<ToolContext, 'cwd' | 'sessionId' | 'agentId'>

/**
 * A block of a tool result as the Messages API takes it: text, an image or a PDF given inline
 * (base64), or a reference to a deferred tool whose schema the result loads (tool search).
 */
export type ToolResultContent = TextBlockParam | ImageBlockParam | DocumentBlockParam | ToolReferenceBlockParam

/**
 * What a tool returns: its structured result (hook scripts see it as tool_response) and the text
 * the model reads. A tool whose answer holds images or a PDF gives `content` too: the blocks the
 * model is sent in place of `text` (which stays the plain form, for hooks and displays).
 */
export interface ToolOutput {
  result: unknown
  text?: string
  content?: ToolResultContent[]
  isError?: boolean
  /**
   * Text that follows the result as the conversation's own words, not the tool's output (a
   * skill's instructions): sent after the batch's results as plain text, with the files its
   * `@path` mentions name attached before it as a prompt's are.
   */
  followUp?: string
  /** Reminders beside the result, as the conversation's context (`<system-reminder>`), not the tool's output. */
  context?: string[]
  /** Ends the turn once this batch is answered: structured output for the result, or an error result. */
  endTurn?: TurnEnding
  /** The lines the call added to and removed from files: the session counts them (`/cost`, the status line). */
  linesChanged?: LinesChanged
}

/** Lines of files a call or a session changed. */
export interface LinesChanged { added: number; removed: number }

/**
 * The Tool contract. Input is described by a zod schema (turned into JSON Schema with zod's own
 * converter) or, for tools defined elsewhere (MCP), by a JSON Schema plus a validator. A zod
 * schema's `jsonSchema`, when given, is its conversion made ahead of time (the built-in tools').
 */
export interface Tool<I = any> {
  readonly name: string
  readonly description: string
  readonly input?: z.ZodType<I>
  readonly jsonSchema?: Record<string, unknown>
  /** True when this call only reads: it may run concurrently with other read-only calls. */
  isReadOnly(input: I): boolean
  call(input: I, ctx: ToolContext): Promise<ToolOutput> | ToolOutput
  /**
   * Fills in what a caller may leave implicit, once the input is valid and before hooks,
   * permissions and `call` see it: a relative or `~/` path made absolute, as Claude Code does.
   * Answers the input itself when there is nothing to fill in.
   */
  resolveInput?(input: I, at: InputPlace): I
  /**
   * Reads a model's input sent in the shape of a like tool (the text editor's `path`, `old_str`,
   * `file_text`) as this tool's own, before it is validated, as Claude Code reads it; undefined when
   * there is nothing to change. `note` tells the model, after the result, what was read as what.
   */
  coerceInput?(input: Record<string, unknown>): CoercedInput | undefined
  /** The mod that registered it. */
  readonly mod?: string
  readonly traits?: ToolTraits
}

/** What a tool says of itself that the loop acts on, so core never needs to know tools by name. */
export interface ToolTraits {
  /**
   * It acts on the main conversation — asks its person, ends it, changes its mode, gives the
   * turn's final answer — so a subagent never gets it.
   */
  mainThreadOnly?: boolean
  /** Only a person can answer it (AskUserQuestion): the approver is told so (the SDK's `requires_user_interaction`). */
  asksUser?: boolean
  /** It starts subagents: a subagent at the nesting limit does not get it. */
  spawnsAgents?: boolean
  /**
   * It works on what the main conversation keeps with its person (the task list): a subagent in
   * the background, which runs unseen beside that conversation, does not get it (spec loop-and-sdk §7.3).
   */
  foregroundOnly?: boolean
  /**
   * Not one of the built-in tools (an MCP server's, the structured-output tool): the `tools` query
   * option, which picks among the built-in ones, leaves it alone.
   */
  external?: boolean
  /** An MCP server's tool: the server's name and where it was configured (`sdk`, `project`, …), as approvers are told. */
  mcpServer?: { name: string; source: string }
}

/**
 * The key under which a registration may give its zod input as the function that builds it, in
 * place of `input`: modloop's own tools do (mods/_shared/register-tool.ts), their JSON Schema kept
 * converted, so a run builds a tool's schema only when something reads `tool.input` (a call's
 * validation). A symbol, so it is no part of `$.tool.register`'s documented shape.
 */
export const INPUT_ON_FIRST_USE: unique symbol = Symbol('modloop.inputOnFirstUse')

export function defineTool<S extends z.ZodType>(tool: Omit<Tool<z.output<S>>, 'input'> & { input: S }): Tool<z.output<S>> {
  return tool as unknown as Tool<z.output<S>>
}

/**
 * The JSON Schema the model sees for a tool's input: what it may send, so a field with a default
 * (Edit's `replace_all`, Grep's `output_mode`) is optional, not required as it is in what parsing
 * gives back. Objects stay closed (`additionalProperties: false`), as zod's output schema has them:
 * a key the tool does not know is dropped, and the model should not be invited to send one. (zod's
 * input schema leaves only its stripping objects open, so closing those is all the difference;
 * one conversion, where two cost a cold start ~0.2 ms a tool.)
 */
export function inputSchemaOf(tool: Tool): Record<string, unknown> {
  if (tool.jsonSchema) return tool.jsonSchema
  if (!tool.input) return { type: 'object' }
  const { $schema: _, ...schema } = z.toJSONSchema(tool.input, { unrepresentable: 'any', io: 'input' }) as Record<string, unknown>
  closeObjects(schema)
  return schema
}

/** Sets `additionalProperties: false` on each object schema that says nothing of other keys (a stripping z.object). */
function closeObjects(node: unknown): void {
  if (typeof node !== 'object' || node === null) return
  if (Array.isArray(node)) {
    for (const item of node) closeObjects(item)
    return
  }
  const o = node as Record<string, unknown>
  if (o.type === 'object' && o.properties !== undefined && o.additionalProperties === undefined) o.additionalProperties = false
  for (const value of Object.values(o)) closeObjects(value)
}

/** A valid input; `note` (from `coerceInput`) follows the call's result. */
export type Validation<I> = { ok: true; input: I; note?: string } | { ok: false; message: string }

/**
 * Validates tool input, naming the tool and every failing field. `fromModel`: the model wrote it,
 * so a parameter the tool does not take is refused too, as Claude Code refuses it (its schema
 * said so; dropped in silence, a misnamed option such as Grep's `include` would just not apply).
 * Input a mod or hook rewrote keeps the schema's own leniency. The model's input is first read
 * through the tool's `coerceInput`; given `at`, a valid input is completed by its `resolveInput`.
 */
export function validateInput<I>(tool: Tool<I>, input: unknown, o: { fromModel?: boolean; at?: InputPlace } = {}): Validation<I> {
  if (!tool.input) {
    return isRecord(input)
      ? { ok: true, input: input as I }
      : { ok: false, message: `${tool.name}: input must be an object` }
  }
  const coerced = o.fromModel && isRecord(input) ? tool.coerceInput?.(input) : undefined
  if (coerced) input = coerced.input
  let parsed = tool.input.safeParse(input)
  if (!parsed.success) {
    const retry = unquoteScalars(input, parsed.error.issues)
    if (retry !== undefined) parsed = tool.input.safeParse(retry)
  }
  const unknown = o.fromModel ? unexpectedKeys(tool.input, input) : []
  if (parsed.success && unknown.length === 0) {
    const valid = o.at && tool.resolveInput ? tool.resolveInput(parsed.data, o.at) : parsed.data
    return coerced?.note ? { ok: true, input: valid, note: coerced.note } : { ok: true, input: valid }
  }
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(input)'}: ${i.message}`)),
    ...unknown.map((key) => `${key}: An unexpected parameter \`${key}\` was provided`),
  ]
  return { ok: false, message: `InputValidationError: ${tool.name} was called with invalid input:\n${problems.map((p) => `- ${p}`).join('\n')}` }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The top-level keys of `input` that a plain (key-stripping) object schema does not name. */
function unexpectedKeys(schema: z.ZodType, input: unknown): string[] {
  const def = (schema as { _zod?: { def?: { type?: string; catchall?: unknown; shape?: Record<string, unknown> } } })._zod?.def
  if (def?.type !== 'object' || def.catchall !== undefined || !def.shape) return []
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return []
  return Object.keys(input).filter((key) => !Object.hasOwn(def.shape!, key))
}

const MEDIA_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp'])

type Block = { type?: unknown; text?: unknown; tool_name?: unknown; source?: { type?: unknown; media_type?: unknown; data?: unknown } }
const isBase64 = (b: Block, types: (t: unknown) => boolean) => b.source?.type === 'base64' && types(b.source.media_type) && typeof b.source.data === 'string'

/**
 * The blocks a tool gave that the API takes in a tool_result — text, base64 images of the four
 * types it reads, and base64 PDFs — or undefined when any other is among them: then the text is
 * sent alone, since one unreadable block would fail the whole request.
 */
export function sendableContent(content: unknown): ToolResultContent[] | undefined {
  if (!Array.isArray(content) || content.length === 0) return undefined
  const ok = content.every((b: Block) =>
    (b?.type === 'text' && typeof b.text === 'string')
    || (b?.type === 'image' && isBase64(b, (t) => MEDIA_TYPES.has(t as string)))
    || (b?.type === 'document' && isBase64(b, (t) => t === 'application/pdf'))
    || (b?.type === 'tool_reference' && typeof b.tool_name === 'string'))
  return ok ? content as ToolResultContent[] : undefined
}
