import { readFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { describeError } from '../../core/errors.js'

/** One project-scope server: its config as written and the `.mcp.json` that holds it. */
export interface ProjectEntry {
  raw: unknown
  file: string
}

/**
 * The `.mcp.json` files a session in `cwd` reads, the farthest first: one in every folder from the
 * root of the file system down to `cwd`, as Claude Code reads them (past the git root and the home
 * folder alike). `modloop mcp add -s project` still writes only `<cwd>/.mcp.json`.
 */
export function projectMcpFiles(cwd: string): string[] {
  const files: string[] = []
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    files.unshift(join(dir, '.mcp.json'))
    if (dirname(dir) === dir) return files
  }
}

/**
 * The project-scope servers of every {@link projectMcpFiles} file: for a name in several, the
 * nearest file's config, listed where the name first appears (the farthest file first), as
 * `claude mcp list` orders them. A file that cannot be read or is not shaped as `.mcp.json` is
 * skipped, with why in `warnings`.
 */
export async function readProjectServers(cwd: string, warnings: string[] = []): Promise<Map<string, ProjectEntry>> {
  const files = projectMcpFiles(cwd)
  // Read at once (a session's start waits on them), taken in order.
  const read = await Promise.all(files.map(async (file) => {
    const said: string[] = []
    return { servers: await readServers(file, said), said }
  }))
  const servers = new Map<string, ProjectEntry>()
  files.forEach((file, i) => {
    warnings.push(...read[i]!.said)
    for (const [name, raw] of Object.entries(read[i]!.servers)) servers.set(name, { raw, file })
  })
  return servers
}

async function readServers(file: string, warnings: string[]): Promise<Record<string, unknown>> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') warnings.push(`${file} could not be read: ${describeError(err)}`)
    return {}
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    warnings.push(`${file} is not valid JSON (${describeError(err)}); its MCP servers are skipped`)
    return {}
  }
  const servers = isObject(json) ? json.mcpServers ?? {} : undefined
  if (isObject(servers)) return servers
  warnings.push(`${file}: "mcpServers" must map names to server configs; its MCP servers are skipped`)
  return {}
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
