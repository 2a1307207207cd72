import type { SettingsSource } from '../permissions/settings-sources.js'
import type { ServerConfig } from './options.js'

/** One entry of `allowedMcpServers` or `deniedMcpServers`: a server's name, its exact command line, or a URL pattern (`*` matches anything). */
interface Entry {
  serverName?: string
  serverCommand?: string[]
  serverUrl?: string
}

/**
 * The settings' `allowedMcpServers` and `deniedMcpServers`, as Claude Code applies them: each list
 * gathers the entries of every source (the allowlist only managed policy's when policy sets
 * `allowManagedMcpServersOnly`). A server any deny entry matches is blocked; with an allowlist
 * (even empty) a server must match it — a command server by its command line when the list has
 * any `serverCommand` entry, a remote one by its URL when it has any `serverUrl`, else by name.
 * In-process (sdk) servers are the host's own and never blocked. Undefined when no source sets either list.
 */
export function serverPolicy(sources: readonly SettingsSource[]): ((name: string, config: ServerConfig) => boolean) | undefined {
  const managedOnly = sources.some((s) => s.source.name === 'policySettings' && s.settings.allowManagedMcpServersOnly === true)
  let allowed: Entry[] | undefined
  const denied: Entry[] = []
  for (const { source, settings } of sources) {
    if (Array.isArray(settings.allowedMcpServers) && (!managedOnly || source.name === 'policySettings')) (allowed ??= []).push(...entries(settings.allowedMcpServers))
    if (Array.isArray(settings.deniedMcpServers)) denied.push(...entries(settings.deniedMcpServers))
  }
  if (!allowed && denied.length === 0) return undefined
  return (name, config) => {
    if (config.type === 'sdk') return false
    if (denied.some((e) => e.serverName === name || matchesCommand(e, config) || matchesUrl(e, config))) return true
    if (!allowed) return false
    const remote = config.type === 'http' || config.type === 'sse'
    const byCommand = !remote && allowed.some((e) => e.serverCommand)
    const byUrl = remote && allowed.some((e) => e.serverUrl)
    if (byCommand) return !allowed.some((e) => matchesCommand(e, config))
    if (byUrl) return !allowed.some((e) => matchesUrl(e, config))
    return !allowed.some((e) => e.serverName === name)
  }
}

const entries = (list: unknown[]): Entry[] => list.filter((e): e is Entry => typeof e === 'object' && e !== null && !Array.isArray(e))

function matchesCommand(entry: Entry, config: ServerConfig): boolean {
  if (!Array.isArray(entry.serverCommand) || !('command' in config)) return false
  const line = [config.command, ...(Array.isArray(config.args) ? config.args : [])]
  return entry.serverCommand.length === line.length && entry.serverCommand.every((part, i) => part === line[i])
}

function matchesUrl(entry: Entry, config: ServerConfig): boolean {
  if (typeof entry.serverUrl !== 'string' || !('url' in config) || typeof config.url !== 'string') return false
  const pattern = new RegExp(`^${entry.serverUrl.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`)
  // The host of a URL is case-blind: the normalized form (lower-case host) is tried too.
  const normalized = URL.canParse(config.url) ? new URL(config.url).href : config.url
  return pattern.test(config.url) || pattern.test(normalized)
}
