import { z } from 'zod'
import { onFirstUse } from '../core/on-first-use.js'
import type { McpServerConfig } from '../core/mod/session-capabilities.js'
import { readJsonArg } from './json-arg.js'
import { usageError } from './usage-error.js'

// Built on first use: only a run given --mcp-config reads one.
const mcpFile = onFirstUse(() => z.looseObject({ mcpServers: z.record(z.string(), z.looseObject({})) }))

/**
 * `--mcp-config <file|json>` (repeatable): each value is a JSON text (it starts with `{`) or a
 * file holding `{ "mcpServers": { name: config } }`, resolved from `cwd`. A later value's server
 * replaces an earlier one of the same name. The mcp mod validates each server's fields.
 */
export function mcpConfigServers(values: readonly string[], cwd: string): Record<string, McpServerConfig> | undefined {
  if (values.length === 0) return undefined
  const servers: Record<string, McpServerConfig> = {}
  for (const value of values) {
    const { json, where } = readJsonArg('--mcp-config', value, cwd)
    const parsed = mcpFile().safeParse(json)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw usageError(`--mcp-config: ${where}: "${issue?.path.join('.') || 'mcpServers'}": ${issue?.message}; expected { "mcpServers": { "<name>": { … } } }`)
    }
    Object.assign(servers, parsed.data.mcpServers)
  }
  return servers
}
