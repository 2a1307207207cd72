import { chmod, mkdir, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { z } from 'zod'
import { projectKey } from '../../mods/mcp/project-key.js'
import { userConfigFile } from '../../mods/mcp/sources.js'
import { writeFileAtomic } from '../../mods/_shared/text-file.js'
import { readJsonObject } from '../../mods/_shared/json-file.js'
import type { Io } from '../io.js'

/** The scopes a person adds servers to, in the order Claude Code searches them (the nearest first). */
export const SCOPES = ['local', 'project', 'user'] as const
export type McpScope = (typeof SCOPES)[number]
export const scopeSchema = z.enum(SCOPES)

export const SCOPE_LABELS: Record<McpScope, string> = {
  local: 'Local config (private to you in this project)',
  project: 'Project config (shared via .mcp.json)',
  user: 'User config (available in all your projects)',
}

type Servers = Record<string, unknown>
type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The files the mcp mod reads servers from (mods/mcp/sources.ts), so a server added here is the
 * one a session starts: the user's `.claude.json` holds the user scope at its top level and the
 * local scope under `projects[<the git root, else the folder>]` (mods/mcp/project-key.ts); the
 * project's `.mcp.json` holds the project scope.
 */
export class McpFiles {
  private constructor(readonly userFile: string, readonly projectFile: string, readonly projectKey: string) {}

  static async of(io: Io): Promise<McpFiles> {
    const userFile = userConfigFile(undefined, (name) => io.env[name])
    return new McpFiles(userFile, join(io.cwd, '.mcp.json'), await projectKey(io.cwd))
  }

  /** The servers of one scope, as the file writes them; none when the file is missing. */
  async read(scope: McpScope): Promise<Servers> {
    const json = await readJsonObject(this.fileOf(scope))
    const servers = scope === 'local' ? (json.projects as Record<string, Json> | undefined)?.[this.projectKey]?.mcpServers : json.mcpServers
    return isObject(servers) ? servers : {}
  }

  /** Replaces one scope's servers by what `change` makes of them, keeping the rest of the file. */
  update(scope: McpScope, change: (servers: Servers) => Servers): Promise<void> {
    return editJson(this.fileOf(scope), (json) => {
      if (scope !== 'local') return void (json.mcpServers = change(isObject(json.mcpServers) ? json.mcpServers : {}))
      const entry = this.projectEntry(json)
      entry.mcpServers = change(isObject(entry.mcpServers) ? entry.mcpServers : {})
    }, scope === 'project' ? undefined : 0o600)
  }

  /** This project's entry of `.claude.json`, made when missing. */
  projectEntry(json: Json): Json {
    const projects = (json.projects = isObject(json.projects) ? json.projects : {})
    return (projects[this.projectKey] = isObject(projects[this.projectKey]) ? projects[this.projectKey] : {}) as Json
  }

  /** What `File modified:` names for a scope. */
  where(scope: McpScope): string {
    return scope === 'project' ? this.projectFile : scope === 'local' ? `${this.userFile} [project: ${this.projectKey}]` : this.userFile
  }

  private fileOf(scope: McpScope): string {
    return scope === 'project' ? this.projectFile : this.userFile
  }
}

/**
 * Changes a JSON file in place through `change`, keeping every key it does not touch; a missing
 * file starts as `{}` (made with `mode`, when given), one that cannot be read is never overwritten.
 */
export async function editJson(file: string, change: (json: Json) => void, mode?: number): Promise<void> {
  const json = await readJsonObject(file)
  change(json)
  const isNew = await stat(file).then(() => false, () => true)
  await mkdir(dirname(file), { recursive: true })
  await writeFileAtomic(file, Buffer.from(JSON.stringify(json, null, 2)))
  // `.claude.json` holds the person's settings and tokens: a new one is theirs alone, as Claude Code makes it.
  if (isNew && mode !== undefined) await chmod(file, mode)
}

