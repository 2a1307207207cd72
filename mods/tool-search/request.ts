import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import type { ModelRequest, ToolDefinition } from '../../core/model/types.js'
import type { DeferredTool } from './search.js'
import type { SearchMode } from './mode.js'

export const TOOL_SEARCH = 'ToolSearch'
/** The API's beta for `defer_loading` and `tool_reference`. */
export const BETA = 'advanced-tool-use-2025-11-20'
// Always one deferred tool in the list, as Claude Code sends, so the first request already has
// the shape later ones have and loading a tool appends to it rather than changes it.
const PLACEHOLDER: ToolDefinition = {
  name: 'DeferredToolPlaceholder',
  description: 'Keeps deferred tool loading on. Never call it.',
  input_schema: { type: 'object', properties: {} },
  defer_loading: true,
}
// About four characters a token: the estimate `auto` weighs the deferred schemas by.
const CHARS_PER_TOKEN = 4

type Tool = NonNullable<ModelRequest['tools']>[number]
const isDeferred = (t: Tool): t is ToolDefinition => (t as ToolDefinition).defer_loading === true

/**
 * The request as tool search sends it, and the deferred tools a search may find. With nothing
 * deferred, or search off (or `auto` and the schemas small enough), every schema goes upfront and
 * ToolSearch is left out. Otherwise a deferred tool is sent only once a result has referenced it,
 * after the others, in the order they were loaded, so loading one keeps the cached prefix; the
 * first user message says which tools can be loaded. `unloaded`: the deferred tools the request
 * does not carry, whose schemas the model has never seen.
 */
export function deferTools(request: ModelRequest, mode: SearchMode, contextWindow: number): { request: ModelRequest; deferred: DeferredTool[]; unloaded: ToolDefinition[] } {
  const tools = request.tools ?? []
  const deferred = tools.filter(isDeferred).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  const hasSearch = tools.some((t) => t.name === TOOL_SEARCH)
  if (deferred.length === 0 || !hasSearch || mode.kind === 'off' || (mode.kind === 'auto' && fits(deferred, contextWindow, mode.percent))) {
    const all = tools.filter((t) => t.name !== TOOL_SEARCH).map((t) => (isDeferred(t) ? withoutDefer(t) : t))
    return { request: { ...request, tools: all }, deferred: [], unloaded: [] }
  }
  const byName = new Map(deferred.map((t) => [t.name, t]))
  const loaded = referencedTools(request.messages).map((n) => byName.get(n)).filter((t): t is ToolDefinition => t !== undefined)
  const unloaded = deferred.filter((t) => !loaded.includes(t))
  return {
    request: {
      ...request,
      tools: [...tools.filter((t) => !isDeferred(t)), PLACEHOLDER, ...loaded],
      messages: announce(request.messages, deferred.map((t) => t.name)),
      betas: [...new Set([...(request.betas ?? []), BETA])],
    },
    deferred: deferred.map((t) => ({ name: t.name, description: t.description })),
    unloaded,
  }
}

function withoutDefer(t: ToolDefinition): ToolDefinition {
  const { defer_loading: _, ...rest } = t
  return rest
}

function fits(deferred: ToolDefinition[], contextWindow: number, percent: number): boolean {
  const chars = deferred.reduce((sum, t) => sum + t.name.length + t.description.length + JSON.stringify(t.input_schema).length, 0)
  return chars / CHARS_PER_TOKEN <= (contextWindow * percent) / 100
}

/** The tools the conversation's tool results reference, in the order first referenced. */
function referencedTools(messages: MessageParam[]): string[] {
  const names = new Set<string>()
  for (const m of messages) {
    if (m.role !== 'user' || typeof m.content === 'string') continue
    for (const block of m.content) {
      if (block.type !== 'tool_result' || !Array.isArray(block.content)) continue
      for (const c of block.content) if (c.type === 'tool_reference') names.add(c.tool_name)
    }
  }
  return [...names]
}

/** The first message, with the names of the deferred tools before its own words. */
function announce(messages: MessageParam[], names: string[]): MessageParam[] {
  const [first, ...rest] = messages
  if (!first || first.role !== 'user') return messages
  const text = `<system-reminder>\nThese tools can be called once their schemas are loaded; until then only their names are known, and a call fails. Load them with ${TOOL_SEARCH}: "select:<name>[,<name>...]" for named ones, or keywords to find some:\n${names.join('\n')}\n</system-reminder>`
  const own = typeof first.content === 'string' ? [{ type: 'text' as const, text: first.content }] : first.content
  return [{ ...first, content: [{ type: 'text', text }, ...own] }, ...rest]
}
