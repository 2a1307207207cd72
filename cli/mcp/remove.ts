import type { CommandRun } from '../command.js'
import { checkScope } from './add.js'
import { McpFiles, SCOPE_LABELS, SCOPES, type McpScope } from './files.js'

/**
 * `modloop mcp remove <name> [-s scope]`: takes a server out of its scope's file. Without `-s`,
 * the one scope that has the name; a name in several is refused, naming them, as Claude Code does.
 */
export const mcpRemove: CommandRun = async ({ values, positionals, io }) => {
  const name = positionals[0]!
  const files = await McpFiles.of(io)
  const remove = async (scope: McpScope, quoted: string) => {
    await files.update(scope, (servers) => Object.fromEntries(Object.entries(servers).filter(([n]) => n !== name)))
    io.stdout.write(`Removed MCP server ${quoted} from ${scope} config\nFile modified: ${files.where(scope)}\n`)
    return 0
  }
  if (values.scope !== undefined) {
    const scope = checkScope(values.scope, io)
    if (typeof scope === 'number') return scope
    if (Object.hasOwn(await files.read(scope), name)) return remove(scope, name)
    // As Claude Code words it: the project scope is named by its file.
    io.stderr.write(`No MCP server named "${name}" in ${scope === 'project' ? '.mcp.json' : `${scope} scope`}\n`)
    return 1
  }
  const found: McpScope[] = []
  for (const scope of SCOPES) if (Object.hasOwn(await files.read(scope), name)) found.push(scope)
  if (found.length === 1) return remove(found[0]!, `"${name}"`)
  if (found.length === 0) {
    io.stderr.write(`No MCP server named "${name}". Run \`modloop mcp add\` to add one.\n`)
    return 1
  }
  io.stderr.write([
    `MCP server "${name}" exists in multiple scopes:`,
    ...found.map((s) => `  - ${SCOPE_LABELS[s]} (${files.where(s)})`),
    '', 'To remove from a specific scope, use:',
    ...found.map((s) => `  modloop mcp remove ${name} -s ${s}`), '',
  ].join('\n'))
  return 1
}
