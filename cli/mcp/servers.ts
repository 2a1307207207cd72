import { approvedServers } from '../../mods/mcp/approvals.js'
import { mcpOptions } from '../../mods/mcp/options.js'
import { settingsChoices } from '../../mods/mcp/settings-choices.js'
import { collectServers, type ServerEntry } from '../../mods/mcp/sources.js'
import { readProjectServers } from '../../mods/mcp/project-files.js'
import { projectTrust } from '../../mods/mcp/trust.js'
import { trustStorePath } from '../../mods/permissions/trust-store.js'
import type { Io } from '../io.js'
import { McpFiles, type McpScope } from './files.js'

/** One configured server as `list` and `get` show it. */
export interface Configured {
  name: string
  scope: McpScope
  /** The config as its file writes it (`${VAR}` not filled in). */
  raw: unknown
  /** What the mcp mod makes of it: its parsed config, or why it fails or would not start. */
  entry?: ServerEntry
  /** Turned off by `disabledMcpjsonServers` in settings (a project server). */
  rejected?: boolean
}

/**
 * Every server of the three scopes, the nearest scope's config for a name set in several, in the
 * order Claude Code lists them (by first appearance: user, project, then local). The mcp mod
 * decides what each would do in a terminal session here: a `.mcp.json` server not yet approved
 * for this workspace (or in a workspace not trusted) is pending, as the session would leave it off.
 */
export async function configuredServers(io: Io): Promise<{ files: McpFiles; servers: Configured[] }> {
  const files = await McpFiles.of(io)
  // The project scope is every `.mcp.json` a session here reads, the folder's and those above it; `add` and `remove` edit only the folder's.
  const project = Object.fromEntries([...await readProjectServers(io.cwd)].map(([name, { raw }]) => [name, raw]))
  const raw = { user: await files.read('user'), project, local: await files.read('local') }
  const env = (name: string) => io.env[name]
  const home = io.env.CLAUDE_CONFIG_DIR ? undefined : io.env.HOME
  const choice = await settingsChoices({ cwd: io.cwd, home, flags: {}, env: io.env }).catch(() => () => undefined)
  const store = trustStorePath({ home: io.env.HOME }, io.env)
  const { servers } = await collectServers({
    cwd: io.cwd, options: mcpOptions.parse({}), flags: {}, env,
    projectTrust: () => projectTrust({ cwd: io.cwd, isInteractive: true, trustFlag: false, headlessTrust: false, trustStore: store, env }),
    projectApproved: async () => {
      const approved = await approvedServers(store, io.cwd).catch(() => new Set<string>())
      return (fingerprint) => approved.has(fingerprint)
    },
    projectChoice: async () => choice,
  })
  const byName = new Map(servers.map((s) => [s.name, s]))
  const names = [...new Set([...Object.keys(raw.user), ...Object.keys(raw.project), ...Object.keys(raw.local)])]
  const listed = names.map((name): Configured => {
    const entry = byName.get(name)
    const scope = (entry?.scope as McpScope | undefined) ?? 'project'
    return { name, scope, raw: raw[scope][name], entry, ...(entry ? {} : { rejected: choice(name) === 'rejected' }) }
  })
  return { files, servers: listed }
}
