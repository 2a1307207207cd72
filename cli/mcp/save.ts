import type { Io } from '../io.js'
import { McpFiles, type McpScope } from './files.js'

/**
 * Writes one server into a scope, refusing a name the scope already has, as Claude Code does.
 * Returns the exit code; `added` prints the success lines once the file is written.
 */
export async function saveServer(io: Io, scope: McpScope, name: string, config: Record<string, unknown>, added: (files: McpFiles) => string): Promise<number> {
  const files = await McpFiles.of(io)
  if (Object.hasOwn(await files.read(scope), name)) {
    io.stderr.write(`MCP server ${name} already exists in ${scope === 'project' ? '.mcp.json' : `${scope} config`}\n`)
    return 1
  }
  await files.update(scope, (servers) => ({ ...servers, [name]: config }))
  io.stdout.write(added(files))
  return 0
}
