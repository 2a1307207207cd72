import { mkdir, readFile, realpath } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { onFirstUse } from '../../core/on-first-use.js'
import { serverFingerprint } from './approvals.js'
import { projectKey } from './project-key.js'
import { readProjectServers } from './project-files.js'
import { expandVars } from './expand.js'
import { pluginDataDir } from '../_shared/plugin-data.js'
import { globalConfigFile } from '../_shared/config-places.js'
import type { SettingsChoice } from './settings-choices.js'
import { parseServer, type McpOptions, type ServerConfig } from './options.js'
import { describeError } from '../../core/errors.js'
import type { PluginPaths } from '../../runtime/loader/types.js'

/** Where a server was configured, lowest precedence first. */
export type Scope = 'user' | 'plugin' | 'config' | 'project' | 'local' | 'query'

export interface ServerEntry {
  name: string
  scope: Scope
  /** The file or option it came from, for messages. */
  origin: string
  config?: ServerConfig
  /** Why it cannot start (bad config, missing variable). */
  error?: string
  /** Why it is not started (untrusted workspace, disabled by option). */
  disabled?: string
}

export interface SourceInput {
  cwd: string
  options: McpOptions
  /** What `$.settings.read({source: 'flag'})` answered: `query()`'s `mcpServers` arrive there. */
  flags: unknown
  env: (name: string) => string | undefined
  /** Whether `.mcp.json` servers may start; asked only when the file names some. */
  projectTrust: () => Promise<{ trusted: boolean; why?: string }>
  /**
   * In a trusted workspace, whether one project server, by its {@link serverFingerprint}, was
   * approved (asked in the terminal, or all of them by `--trust-workspace`). Absent: all are.
   */
  projectApproved?: () => Promise<(fingerprint: string) => boolean>
  /** What the settings files say of a project server by name (see {@link settingsChoices}); asked only when `.mcp.json` names some. */
  projectChoice?: () => Promise<(name: string) => SettingsChoice>
  /** The plugin directories loaded: each one's `.mcp.json` and manifest `mcpServers`, with `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` filled in. */
  plugins?: readonly { name: string; root: string; paths?: Pick<PluginPaths, 'mcpServers'> }[]
}

export const NOT_APPROVED = 'not approved'

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
// Each built on first use: a file's shape only where that file is there to read.
const jsonObject = onFirstUse(() => z.record(z.string(), z.unknown()))
const withServers = onFirstUse(() => z.looseObject({ mcpServers: z.record(z.string(), z.unknown()).optional() }))
const launchFlags = onFirstUse(() => withServers().extend({ strictMcpConfig: z.boolean().optional(), settingSources: z.array(z.string()).optional() }))
const userFile = onFirstUse(() => z.looseObject({
  mcpServers: z.record(z.string(), z.unknown()).optional(),
  projects: z.record(z.string(), withServers()).optional(),
}))

/**
 * Every configured server, a later scope replacing an earlier one of the same name: the user's
 * `.claude.json`, the loaded plugins' `.mcp.json` (the person chose to load them), the modloop config (the mod's `servers`), the `.mcp.json` of
 * `cwd` and of every folder above it (only in a trusted workspace; see {@link readProjectServers}), the user's per-project entry in `.claude.json`, then `query()` options.
 * A file that cannot be read is skipped with a warning; a bad server is kept, failed, with why.
 * With the launch flags' `strictMcpConfig` (`--strict-mcp-config`), or the `launchServersOnly` option, only the query's servers count.
 * The launch's `settingSources` (`--setting-sources`) picks the scopes too, as in Claude Code: the user's
 * `.claude.json` servers with `user`, `.mcp.json` with `project`, the per-project entry with `local`.
 */
export async function collectServers(input: SourceInput): Promise<{ servers: ServerEntry[]; warnings: string[] }> {
  const { cwd, options, env } = input
  const warnings: string[] = []
  const byName = new Map<string, ServerEntry>()
  const add = (scope: Scope, origin: string, servers: Record<string, unknown> | undefined, disabled?: string, vars = env) => {
    for (const [name, raw] of Object.entries(servers ?? {})) {
      byName.delete(name)
      byName.set(name, { ...toEntry(name, scope, origin, raw, vars), ...(disabled ? { disabled } : {}) })
    }
  }

  const flags = launchFlags().safeParse(input.flags ?? {})
  if (!flags.success) warnings.push(`the mcpServers of the launch options could not be read: ${flags.error.issues[0]?.message}`)
  if (flags.success && (flags.data.strictMcpConfig === true || options.launchServersOnly)) {
    add('query', 'query() options', flags.data.mcpServers)
    return { servers: disable([...byName.values()], options), warnings }
  }

  const sources = new Set(flags.success ? flags.data.settingSources ?? ['user', 'project', 'local'] : [])
  const userPath = userConfigFile(options.home, env)
  const user = sources.has('user') || sources.has('local') ? await readJson(userPath, userFile, warnings) : undefined
  if (sources.has('user')) add('user', userPath, user?.mcpServers)
  const configDir = env('CLAUDE_CONFIG_DIR') || join(options.home ?? env('HOME') ?? homedir(), '.claude')
  for (const plugin of input.plugins ?? []) {
    const file = join(plugin.root, '.mcp.json')
    const maps: [string, Record<string, unknown>][] = []
    const servers = (await readJson(file, withServers, warnings))?.mcpServers
    if (servers) maps.push([file, servers])
    // The manifest's `mcpServers`: files shaped as `.mcp.json` is (or the bare map), or the map inline.
    for (const extra of plugin.paths?.mcpServers ?? []) {
      const given = extra.file ? await readJson(extra.file, jsonObject, warnings) : extra.servers
      const map = given && isObject(given.mcpServers) ? given.mcpServers : given
      if (map) maps.push([extra.origin, map])
    }
    if (maps.length === 0) continue
    // As Claude Code does: the plugin's directories fill `${…}` and reach its servers' environment,
    // and the data directory exists before a server writes there.
    const own = { CLAUDE_PLUGIN_ROOT: plugin.root, CLAUDE_PLUGIN_DATA: pluginDataDir(configDir, plugin) }
    await mkdir(own.CLAUDE_PLUGIN_DATA, { recursive: true }).catch(() => {})
    const vars = (name: string) => (name in own ? own[name as keyof typeof own] : env(name))
    for (const [origin, map] of maps) add('plugin', origin, ofPlugin(plugin.name, withOwnEnv(map, own)), undefined, vars)
  }
  add('config', 'the modloop config (mcpServers)', options.servers)

  const project = sources.has('project') ? await readProjectServers(cwd, warnings) : new Map()
  if (project.size > 0) {
    const trust = await input.projectTrust()
    const approved = trust.trusted && input.projectApproved ? await input.projectApproved() : () => true
    const choice = input.projectChoice ? await input.projectChoice() : () => undefined
    for (const [name, { raw, file }] of project) {
      // Rejected in settings, a server is left out, as Claude Code leaves it out of its list.
      if (choice(name) === 'rejected') continue
      const why = !trust.trusted ? trust.why ?? 'the workspace is not trusted'
        : choice(name) === 'approved' || approved(serverFingerprint(name, raw)) ? undefined
        : `${NOT_APPROVED}: ${file} server "${name}" is new or changed since it was approved; start modloop in ${cwd} to approve it, or pass --trust-workspace`
      add('project', file, { [name]: raw }, why)
    }
  }

  // The project's key (its git root) is worked out only when the file keeps projects at all.
  const projects = user?.projects
  if (projects && sources.has('local')) {
    const key = await projectKey(cwd)
    const real = await realpath(cwd).catch(() => cwd)
    // An entry under the folder's own path (where modloop looked before it keyed them as Claude Code does) still counts when the project's has none.
    add('local', `${userPath} (projects["${key}"])`, projects[key]?.mcpServers ?? projects[real]?.mcpServers ?? projects[cwd]?.mcpServers)
  }

  if (flags.success) add('query', 'query() options', flags.data.mcpServers)
  return { servers: disable([...byName.values()], options), warnings }
}

/** The user's `.claude.json` (user and local scopes): in `home` when given, else in CLAUDE_CONFIG_DIR, else in the home folder. */
export function userConfigFile(home: string | undefined, env: (name: string) => string | undefined): string {
  return home !== undefined ? join(home, '.claude.json') : globalConfigFile(env)
}

/**
 * A plugin's servers are named `plugin:<plugin>:<server>`, as in Claude Code (their tools are then
 * `mcp__plugin_<plugin>_<server>__<tool>`): two plugins, or a plugin and the user, may each
 * have a server called `docs` without one replacing the other.
 */
function ofPlugin(plugin: string, servers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(servers).map(([name, raw]) => [`plugin:${plugin}:${name}`, raw]))
}

/** A command server's `env` with the plugin's variables under it: the config's own values win. */
function withOwnEnv(servers: Record<string, unknown>, own: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(servers).map(([name, raw]) => {
    if (!isObject(raw) || typeof raw.command !== 'string') return [name, raw]
    return [name, { ...raw, env: { ...own, ...(isObject(raw.env) ? raw.env : {}) } }]
  }))
}

function disable(servers: ServerEntry[], options: McpOptions): ServerEntry[] {
  for (const entry of servers) if (options.disabled.includes(entry.name)) entry.disabled = "listed in the mcp mod's disabled option"
  return servers
}

function toEntry(name: string, scope: Scope, origin: string, raw: unknown, env: (name: string) => string | undefined): ServerEntry {
  const base = { name, scope, origin }
  // An in-process server carries a live object: nothing in it is text to expand.
  const isSdk = (raw as { type?: unknown } | null)?.type === 'sdk'
  const expanded = isSdk ? { value: raw, missing: [] } : expandVars(raw, env)
  if (expanded.missing.length > 0) {
    return { ...base, error: `${origin}: server "${name}" uses ${expanded.missing.map((v) => `\${${v}}`).join(', ')}, which ${expanded.missing.length === 1 ? 'is' : 'are'} not set and ${expanded.missing.length === 1 ? 'has' : 'have'} no default` }
  }
  const parsed = parseServer(expanded.value)
  return 'error' in parsed ? { ...base, error: `${origin}: server "${name}": ${parsed.error}` } : { ...base, config: parsed.config }
}

async function readJson<S extends z.ZodType>(file: string, schema: () => S, warnings: string[]): Promise<z.output<S> | undefined> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') warnings.push(`${file} could not be read: ${describeError(err)}`)
    return undefined
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    warnings.push(`${file} is not valid JSON (${describeError(err)}); its MCP servers are skipped`)
    return undefined
  }
  const parsed = schema().safeParse(json)
  if (parsed.success) return parsed.data
  warnings.push(`${file}: "mcpServers" must map names to server configs; its MCP servers are skipped`)
  return undefined
}
