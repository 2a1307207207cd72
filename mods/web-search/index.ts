import { z } from 'zod'
import { defineMod } from '../../core/mod/define.js'
import { failure, registerTool } from '../_shared/register-tool.js'
import { resultsOf, resultText, type SearchOutput } from './results.js'
import { builtinInput } from '../_shared/builtin-input.js'
import { builtinOptions } from '../_shared/builtin-options.js'

const input = builtinInput('WebSearch', () => z.object({
  query: z.string().min(2).describe('What to search the web for'),
  allowed_domains: z.array(z.string()).optional().describe('Only return results from these domains'),
  blocked_domains: z.array(z.string()).optional().describe('Never return results from these domains'),
}).refine((i) => !(i.allowed_domains && i.blocked_domains), { message: 'Cannot specify both allowed_domains and blocked_domains in the same request' }))

const options = builtinOptions('web-search', () => z.object({
  /** Searches the API's server may run for one call. */
  maxUses: z.number().int().positive().default(8),
  /** The model that runs the search; default: the session's own, as Claude Code's. */
  model: z.string().optional(),
}))

/** Calls a session may make, subagents' included, unless CLAUDE_CODE_MAX_WEB_SEARCHES_PER_SESSION says otherwise. */
const DEFAULT_CAP = 200

const DESCRIPTION = 'Search the web and get back result titles and URLs, with a short summary of what was found. Use it for information newer than your training data or not in the project. allowed_domains or blocked_domains (not both) narrow the results to, or away from, some sites. Cite the sources you use as markdown links in your answer.'

const SYSTEM = 'You search the web on behalf of another model, which waits for your results and may search again. Run one search, then sum up briefly what it found.'

/**
 * WebSearch: a side request to the model with the API's own web search tool; the searches its
 * server runs come back as titles and URLs, with the model's words around them.
 */
export default defineMod({
  name: 'web-search',
  description: 'The WebSearch tool',
  options,
  register(on, opts) {
    on('session.start', async ($, e, next) => {
      // Per session: subagents call the same registered tool, so their calls count here too.
      let calls = 0
      await registerTool($, {
        name: 'WebSearch', description: DESCRIPTION, input, isReadOnly: true,
        call: async (i, ctx) => {
          const started = performance.now()
          const cap = capOf($.env.get('CLAUDE_CODE_MAX_WEB_SEARCHES_PER_SESSION'))
          if (calls >= cap) {
            const note = `The web search was not run: this session has used its ${cap} WebSearch calls (CLAUDE_CODE_MAX_WEB_SEARCHES_PER_SESSION). Answer with what has been found so far and say so; do not search by other means (curl, a browser, a proxy). The user can raise the limit or search on in a new session.`
            const out: SearchOutput = { query: i.query, results: [note], durationSeconds: seconds(started), searchCount: 0 }
            return { result: out, text: resultText(i.query, out.results) }
          }
          calls++
          const answer = await $.model.complete({
            model: opts.model ?? ctx.model ?? $.session.model(),
            // As high as the model allows (complete caps it there): the searches' calls count as output too.
            maxTokens: Number.MAX_SAFE_INTEGER,
            system: SYSTEM,
            prompt: `Search the web for: ${i.query}`,
            serverTools: [{
              type: 'web_search_20250305', name: 'web_search',
              ...(i.allowed_domains ? { allowed_domains: i.allowed_domains } : {}),
              ...(i.blocked_domains ? { blocked_domains: i.blocked_domains } : {}),
              max_uses: opts.maxUses,
            }],
          }, { signal: ctx.signal })
          if (!answer.isAnswered) {
            if (answer.reason === 'api-error') return failure(`API Error: ${answer.status ? `${answer.status} ` : ''}${answer.message ?? answer.error}`)
            return failure(answer.reason === 'aborted' ? 'The web search was interrupted.' : 'The web search came back empty: the model wrote nothing and ran no search.')
          }
          const results = resultsOf(answer.content ?? [])
          const out: SearchOutput = { query: i.query, results, durationSeconds: seconds(started), searchCount: answer.usage.server_tool_use?.web_search_requests ?? 0 }
          return { result: out, text: resultText(i.query, results) }
        },
      })
      return next(e)
    })
  },
})

function capOf(raw: string | undefined): number {
  const n = Number(raw)
  return raw !== undefined && raw.trim() !== '' && Number.isInteger(n) && n >= 0 ? n : DEFAULT_CAP
}

const seconds = (started: number) => (performance.now() - started) / 1000
