/** When deferred tools stay behind ToolSearch: always, never, or when they would fill more than `percent` of the context window. */
export type SearchMode = { kind: 'on' } | { kind: 'off' } | { kind: 'auto'; percent: number }

const AUTO_PERCENT = 10

/**
 * ENABLE_TOOL_SEARCH: `true`, `false`, `auto` (10%), `auto:N`. Unset, tool search is on against
 * Anthropic's own API and off through any other ANTHROPIC_BASE_URL (a proxy or gateway may not
 * know `defer_loading` and `tool_reference`).
 */
export function searchMode(env: (name: string) => string | undefined): SearchMode {
  const raw = env('ENABLE_TOOL_SEARCH')?.trim().toLowerCase()
  if (raw === 'true' || raw === '1') return { kind: 'on' }
  if (raw === 'false' || raw === '0') return { kind: 'off' }
  if (raw === 'auto') return { kind: 'auto', percent: AUTO_PERCENT }
  const n = raw?.startsWith('auto:') ? Number(raw.slice(5)) : NaN
  if (Number.isFinite(n) && n >= 0 && n <= 100) return { kind: 'auto', percent: n }
  return isFirstParty(env('ANTHROPIC_BASE_URL')) ? { kind: 'on' } : { kind: 'off' }
}

/**
 * Whether a model reads `tool_reference` blocks: the Claude 3 models do not, so with them every
 * schema goes upfront whatever ENABLE_TOOL_SEARCH says, as Claude Code sends them.
 */
export function supportsToolSearch(model: string): boolean {
  return !/(^|[^a-z])claude-3-/.test(model.toLowerCase())
}

function isFirstParty(baseUrl: string | undefined): boolean {
  if (!baseUrl) return true
  try {
    return new URL(baseUrl).hostname === 'api.anthropic.com'
  } catch {
    return false
  }
}
