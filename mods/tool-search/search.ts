/** A deferred tool as the request names it: what a search matches against. */
export interface DeferredTool { name: string; description: string }

/**
 * The tools a ToolSearch query picks, best first: `select:A,B` names them; otherwise each word
 * scores a tool by where it appears (a part of its name beats its name, which beats its
 * description), and a `+word` must be in the name. Without `+` words, a tool that matches
 * nothing is left out.
 */
export function searchTools(tools: readonly DeferredTool[], query: string, max: number): string[] {
  const q = query.trim()
  if (q.toLowerCase().startsWith('select:')) {
    const byName = new Map(tools.map((t) => [t.name.toLowerCase(), t.name]))
    const picked = q.slice(7).split(',').map((n) => byName.get(n.trim().toLowerCase())).filter((n): n is string => n !== undefined)
    return [...new Set(picked)]
  }
  const words = q.toLowerCase().split(/\s+/).filter(Boolean)
  const required = words.filter((w) => w.startsWith('+') && w.length > 1).map((w) => w.slice(1))
  const optional = words.filter((w) => !w.startsWith('+'))
  const scored = tools
    .filter((t) => required.every((w) => t.name.toLowerCase().includes(w)))
    .map((t, i) => ({ name: t.name, i, score: optional.reduce((sum, w) => sum + scoreOf(t, w), 0) }))
    .filter((t) => t.score > 0 || required.length > 0)
  scored.sort((a, b) => b.score - a.score || a.i - b.i)
  return scored.slice(0, Math.max(0, max)).map((t) => t.name)
}

function scoreOf(tool: DeferredTool, word: string): number {
  const name = tool.name.toLowerCase()
  const parts = name.split(/__|_|-/)
  if (parts.includes(word)) return 3
  if (name.includes(word)) return 2
  return tool.description.toLowerCase().includes(word) ? 1 : 0
}
