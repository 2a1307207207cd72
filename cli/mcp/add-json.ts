import { text } from 'node:stream/consumers'
import type { CommandRun } from '../command.js'
import { checkScope, invalid } from './add.js'
import { saveServer } from './save.js'
import { serverName } from './validate.js'

/**
 * `modloop mcp add-json [-s scope] <name> <json|->`: one server's config as JSON (`-` reads it
 * from stdin), checked by the mcp mod's parser and written as given.
 */
export const mcpAddJson: CommandRun = async ({ values, positionals, io }) => {
  const [name, given] = positionals as [string, string]
  if (!serverName.safeParse(name).success) {
    io.stderr.write(`Invalid name ${name}. Names can only contain letters, numbers, hyphens, and underscores.\n`)
    return 1
  }
  const scope = checkScope(values.scope, io)
  if (typeof scope === 'number') return scope
  const source = given === '-' && io.stdin ? await text(io.stdin) : given
  let config: unknown
  try {
    config = JSON.parse(source)
  } catch {
    config = undefined
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    io.stderr.write('Invalid configuration: not a JSON object. Check its quotes, commas and braces.\n')
    return 1
  }
  if (invalid(io, config)) return 1
  const type = typeof (config as { type?: unknown }).type === 'string' ? (config as { type: string }).type : 'stdio'
  return saveServer(io, scope, name, config as Record<string, unknown>, () => `Added ${type} MCP server ${name} to ${scope} config\n`)
}
