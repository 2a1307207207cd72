import type { ContentBlock } from '@anthropic-ai/sdk/resources/messages'

/** One search's hits as the tool reports them: titles and URLs only, never the pages' text. */
export interface SearchHits {
  tool_use_id: string
  content: { title: string; url: string }[]
}

/** What WebSearch gives back (its `tool_use_result`), as Claude Code shapes it. */
export interface SearchOutput {
  query: string
  /** The searching model's words and each search's hits, in the order it wrote them. */
  results: (string | SearchHits)[]
  durationSeconds: number
  /** The searches the API's server ran for this call. */
  searchCount: number
}

/**
 * The results of a response to the search request: the model's text between searches, each
 * search's hits, and a search that failed as `Web search error: <code>`.
 */
export function resultsOf(content: readonly ContentBlock[]): (string | SearchHits)[] {
  const out: (string | SearchHits)[] = []
  for (const block of content) {
    if (block.type === 'text') {
      const text = block.text.trim()
      if (text) out.push(text)
    } else if (block.type === 'web_search_tool_result') {
      if (Array.isArray(block.content)) out.push({ tool_use_id: block.tool_use_id, content: block.content.map((h) => ({ title: h.title, url: h.url })) })
      else out.push(`Web search error: ${block.content.error_code}`)
    }
  }
  return out
}

/**
 * The text the main model reads, in Claude Code's form: the query, then each part (hits as a JSON
 * list of titles and URLs), then a reminder to cite them.
 */
export function resultText(query: string, results: readonly (string | SearchHits)[]): string {
  const parts = results.map((r) => (typeof r === 'string' ? r : r.content.length > 0 ? `Links: ${JSON.stringify(r.content)}` : 'No links found.'))
  return `Web search results for query: "${query}"\n\n${parts.join('\n\n')}\n\n\nREMINDER: You MUST include the sources above in your response to the user using markdown hyperlinks.`
}
