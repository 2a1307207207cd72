import { z } from 'zod'
import { expandVars } from '../../mods/mcp/expand.js'
import { parseServer } from '../../mods/mcp/options.js'

/** A server name as Claude Code takes it: it becomes part of each tool's `mcp__<server>__<tool>` name. */
export const serverName = z.string().regex(/^[A-Za-z0-9_-]+$/)

/**
 * Why a config about to be written could not start, checked by the mcp mod's own parser, or
 * undefined when it is fine. A config using `${VAR}` is checked as the mod will read it; one
 * whose variable is unset is left for the session to report, since it may be set by then.
 */
export function configProblem(raw: unknown, env: Record<string, string | undefined>): string | undefined {
  if ((raw as { type?: unknown } | null)?.type === 'sdk') return 'type "sdk" is an in-process server of query(); a file cannot hold one'
  const expanded = expandVars(raw, (name) => env[name])
  if (expanded.missing.length > 0) return undefined
  const parsed = parseServer(expanded.value)
  return 'error' in parsed ? parsed.error : undefined
}
