import { z } from 'zod'
import type { CommandRun, Values } from '../command.js'
import type { Io } from '../io.js'
import { scopeSchema, SCOPES, type McpScope } from './files.js'
import { saveServer } from './save.js'
import { configProblem, serverName } from './validate.js'

// `streamable-http` is another name Claude Code takes for `http`.
const transportSchema = z.enum(['stdio', 'sse', 'http', 'streamable-http']).transform((t) => (t === 'streamable-http' ? 'http' : t))
const envEntry = z.string().regex(/^[^=]+=/)
const headerEntry = z.string().regex(/^[^:]+:/)
// Header names whose values are secrets: shown as [REDACTED] in what `add` prints.
const SECRET_HEADER = /authorization|cookie|key|token|secret|password/i

/**
 * `modloop mcp add [-s scope] [-t transport] [-e K=V]... [-H 'K: V']... <name> <commandOrUrl> [args...]`:
 * writes one server to the scope's file as Claude Code's `claude mcp add` does, with the same
 * shape (`type` always written), messages and refusals.
 */
export const mcpAdd: CommandRun = async ({ values, positionals, io }) => {
  const [name, target, ...args] = positionals as [string, string, ...string[]]
  const checked = checkFlags(values, name, io)
  if (typeof checked === 'number') return checked
  const { scope, transport, env, headers } = checked
  if (transport === 'stdio') {
    if (/^https?:\/\//.test(target)) {
      io.stderr.write(`\nWarning: The command "${target}" looks like a URL, but is treated as a stdio server because --transport wasn't set.\n`
        + `If this is an HTTP server, use: modloop mcp add --transport http ${name} ${target}\n`
        + `If this is an SSE server, use: modloop mcp add --transport sse ${name} ${target}\n`)
    }
    const config = { type: 'stdio', command: target, args, env }
    if (invalid(io, config)) return 1
    return saveServer(io, scope, name, config, (files) =>
      `Added stdio MCP server ${name} with command: ${target} ${args.join(' ')} to ${scope} config\nFile modified: ${files.where(scope)}\n`)
  }
  const config = { type: transport, url: target, ...(headers ? { headers } : {}) }
  if (invalid(io, config)) return 1
  const shown = headers && Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, SECRET_HEADER.test(k) ? '[REDACTED]' : v]))
  return saveServer(io, scope, name, config, (files) =>
    `Added ${transport.toUpperCase()} MCP server ${name} with URL: ${target} to ${scope} config\n${shown ? `Headers: ${JSON.stringify(shown, null, 2)}\n` : ''}File modified: ${files.where(scope)}\n`)
}

interface Flags {
  scope: McpScope
  transport: 'stdio' | 'sse' | 'http'
  env: Record<string, string>
  headers?: Record<string, string>
}

/** The flags checked as Claude Code checks them, or the exit code after saying what is wrong. */
function checkFlags(values: Values, name: string, io: Io): Flags | number {
  const fail = (message: string) => (io.stderr.write(`${message}\n`), 1)
  if (!serverName.safeParse(name).success) return fail(`Invalid name ${name}. Names can only contain letters, numbers, hyphens, and underscores.`)
  const scope = checkScope(values.scope, io)
  if (typeof scope === 'number') return scope
  const transport = transportSchema.safeParse(values.transport ?? 'stdio')
  if (!transport.success) return fail(`Invalid transport type: ${String(values.transport)}. Must be one of: stdio, sse, http (or streamable-http)`)
  const env: Record<string, string> = {}
  for (const entry of strings(values.env)) {
    if (!envEntry.safeParse(entry).success) return fail(`Invalid environment variable format: ${entry}, environment variables should be added as: -e KEY1=value1 -e KEY2=value2`)
    const at = entry.indexOf('=')
    env[entry.slice(0, at)] = entry.slice(at + 1)
  }
  let headers: Record<string, string> | undefined
  for (const entry of strings(values.header)) {
    if (!headerEntry.safeParse(entry).success) return fail(`Invalid header format: "${entry}". Expected format: "Header-Name: value"`)
    const at = entry.indexOf(':')
    headers = { ...headers, [entry.slice(0, at).trim()]: entry.slice(at + 1).trim() }
  }
  return { scope, transport: transport.data, env, headers }
}

/** `-s/--scope`, local when not given; a bad one is said as Claude Code says it. */
export function checkScope(value: Values[string], io: Io): McpScope | number {
  const scope = scopeSchema.safeParse(value ?? 'local')
  if (scope.success) return scope.data
  io.stderr.write(`Invalid scope: ${String(value)}. Must be one of: ${SCOPES.join(', ')}\n`)
  return 1
}

/** A config the mcp mod could not start is refused before it is written, naming the field. */
export function invalid(io: Io, config: unknown): boolean {
  const problem = configProblem(config, io.env)
  if (problem) io.stderr.write(`Invalid configuration: ${problem}\n`)
  return problem !== undefined
}

const strings = (v: Values[string]): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : [])
