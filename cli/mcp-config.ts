import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { z } from 'zod'
import type { McpServerConfig } from '../core/loop/options.js'
import { usageError } from './usage-error.js'

const mcpFile = z.looseObject({ mcpServers: z.record(z.string(), z.looseObject({})) })

/**
 * `--mcp-config <file|json>` (repeatable): each value is a JSON text (it starts with `{`) or a
 * file holding `{ "mcpServers": { name: config } }`, resolved from `cwd`. A later value's server
 * replaces an earlier one of the same name. The mcp mod validates each server's fields.
 */
export function mcpConfigServers(values: readonly string[], cwd: string): Record<string, McpServerConfig> | undefined {
  if (values.length === 0) return undefined
  const servers: Record<string, McpServerConfig> = {}
  for (const value of values) {
    const inline = value.trimStart().startsWith('{')
    const where = inline ? 'the JSON given to --mcp-config' : resolve(cwd, value)
    let text = value
    if (!inline) {
      try {
        text = readFileSync(where, 'utf8')
      } catch (err) {
        throw usageError(`--mcp-config: ${where} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`)
      }
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch (err) {
      throw usageError(`--mcp-config: ${where} is not valid JSON (${(err as Error).message})`)
    }
    const parsed = mcpFile.safeParse(json)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw usageError(`--mcp-config: ${where}: "${issue?.path.join('.') || 'mcpServers'}": ${issue?.message}; expected { "mcpServers": { "<name>": { … } } }`)
    }
    Object.assign(servers, parsed.data.mcpServers)
  }
  return servers
}
