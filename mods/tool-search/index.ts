import { z } from 'zod'
import { defineMod } from '../../core/mod/define.js'
import { contextWindow } from '../../core/model/pricing.js'
import { registerTool } from '../_shared/register-tool.js'
import { searchMode, supportsToolSearch } from './mode.js'
import { deferredByDefault } from './placement.js'
import { deferTools, TOOL_SEARCH } from './request.js'
import { searchTools, type DeferredTool } from './search.js'
import { unloadedHint } from './unloaded.js'
import type { ToolDefinition } from '../../core/model/types.js'
import { builtinInput } from '../_shared/builtin-input.js'
import { builtinOptions } from '../_shared/builtin-options.js'

const input = builtinInput('ToolSearch', () => z.object({
  query: z.string().describe('"select:<name>[,<name>...]" for tools by name, or keywords; "+word" requires the word in the name'),
  max_results: z.number().default(5).describe('The most tools a keyword search loads (default: 5)'),
}))

const DESCRIPTION = [
  'Loads the schemas of deferred tools, so they can be called.',
  'A deferred tool is known by name only (a system reminder lists them), and calling it before its schema is loaded fails. This tool matches the query against those tools and loads the ones it finds: from the next step on, they can be called as any other tool.',
  'Query forms:',
  '- "select:NotebookEdit,mcp__slack__send": exactly these tools',
  '- "jupyter notebook": keyword search, the best max_results matches',
  '- "+slack send": "slack" must be in the name; the other words rank the matches',
].join('\n')

const NO_MATCH = 'No matching deferred tools found'
// A result of references holds no words; this text after it (the same for one tool or several) says what it did, as Claude Code sends it.
const LOADED = 'Tool loaded.'

/**
 * Tool search: MCP tools and the seldom-used built-ins (placement.ts) go to the model by name
 * only, behind ToolSearch, which loads a tool's schema through a `tool_reference` in its result
 * (the API's `defer_loading`). ENABLE_TOOL_SEARCH and the model decide when (mode.ts); a server or
 * tool set to `alwaysLoad` is always sent whole (the mcp mod answers `isDeferred: false` for it).
 */
export default defineMod({
  name: 'tool-search',
  description: 'Deferred MCP and built-in tools, and the ToolSearch tool',
  options: builtinOptions('tool-search', () => z.object({})),
  register(on) {
    // The deferred tools of each conversation's latest request (a subagent's are its own).
    const deferred = new Map<string, DeferredTool[]>()
    // And of those, the ones its request did not carry: the model has not seen their schemas.
    const unloaded = new Map<string, ToolDefinition[]>()
    const key = (sessionId: unknown, agentId: string | undefined) => `${String(sessionId)}/${agentId ?? ''}`

    on('session.start', async ($, e, next) => {
      deferred.clear()
      unloaded.clear()
      if (searchMode((name) => $.env.get(name)).kind !== 'off') {
        await registerTool($, {
          name: TOOL_SEARCH, description: DESCRIPTION, input, isReadOnly: true,
          call: (i, ctx) => {
            const tools = deferred.get(key(ctx.sessionId, ctx.agentId)) ?? []
            const matches = searchTools(tools, i.query, i.max_results)
            const result = { matches, query: i.query, total_deferred_tools: tools.length }
            if (matches.length === 0) return { result, text: NO_MATCH }
            const content = matches.map((tool_name) => ({ type: 'tool_reference' as const, tool_name }))
            return { result, text: matches.join('\n'), content, followUp: LOADED }
          },
        })
      }
      return next(e)
    })

    // An MCP tool or a seldom-used built-in is deferred unless a handler beneath placed it.
    on('tool.describe', async ($, e, next) => {
      const r = await next(e)
      if (r.isDeferred !== undefined || !deferredByDefault(e.tool)) return r
      return searchMode((name) => $.env.get(name)).kind === 'off' ? r : { ...r, isDeferred: true }
    })

    // A call to a tool whose schema was never sent fails on input written blind: say how to load it.
    on('tool.invalid', async ($, e, next) => {
      const r = await next(e)
      const tool = unloaded.get(key($.session.id(), e.agentId))?.find((t) => t.name === e.tool)
      return tool ? { message: `${r.message}\n\n${unloadedHint(tool)}` } : r
    })

    on('model.request', ($, e, next) => {
      if (e.purpose === 'complete') return next(e)
      const mode = supportsToolSearch(e.request.model) ? searchMode((name) => $.env.get(name)) : { kind: 'off' as const }
      const out = deferTools(e.request, mode, contextWindow(e.request.model))
      deferred.set(key($.session.id(), e.agentId), out.deferred)
      unloaded.set(key($.session.id(), e.agentId), out.unloaded)
      return next({ ...e, request: out.request })
    })
  },
})
