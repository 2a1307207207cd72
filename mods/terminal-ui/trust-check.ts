import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { SEARCH_PLACES } from '../../runtime/loader/find-config.js'
import { readAgentDir } from '../agent/definitions.js'
import { readProjectServers } from '../mcp/project-files.js'
import { readCommands, readSkills } from '../commands/definitions.js'
import { NARROW_MODES } from '../permissions/policy.js'
import { trustedBy, trustStorePath } from '../permissions/trust-store.js'

/**
 * What in `cwd` would run code of the project's own once a session starts, or let more run
 * unasked: settings hooks, a `statusLine` command, environment variables (`env`) and permissions that widen access (allow rules, a mode looser than
 * default or plan, extra directories) in `.claude/settings*.json`, MCP servers in `.mcp.json` here or above
 * (the mcp mod starts them once the folder is trusted) and a modloop config (which names mods).
 * Only files are looked at; nothing of the project is loaded or run before the user trusts it.
 */
export async function projectCode(cwd: string): Promise<string[]> {
  const found: string[] = []
  for (const name of ['settings.json', 'settings.local.json']) {
    const json = await readJson(join(cwd, '.claude', name))
    if (!json || typeof json !== 'object') continue
    if (hasEntries(json, 'hooks')) found.push(`hooks in .claude/${name}`)
    // The settings-env mod applies them only once the folder is trusted: PATH, NODE_OPTIONS… change what commands run.
    if (hasEntries(json, 'env')) found.push(`environment variables (env) in .claude/${name}`)
    // The terminal runs it at every redraw once the folder is trusted.
    if (hasEntries(json, 'statusLine')) found.push(`a status line command (statusLine) in .claude/${name}`)
    const widened = widening((json as { permissions?: unknown }).permissions)
    if (widened.length > 0) found.push(`permissions that widen access in .claude/${name} (${widened.join(', ')})`)
  }
  found.push(...await frontmatterHooks(cwd))
  // A session reads the `.mcp.json` of every folder above too: a parent's servers start here as well.
  const mcpFiles = new Set([...(await readProjectServers(cwd)).values()].map((s) => relative(cwd, s.file)))
  for (const file of mcpFiles) found.push(`MCP servers in ${file}`)
  for (const name of SEARCH_PLACES) {
    const file = join(cwd, name)
    if (!existsSync(file)) continue
    if (name === 'package.json') {
      const json = await readJson(file)
      if (json && typeof json === 'object' && 'modloop' in json) found.push('a modloop config in package.json')
    } else found.push(`mods of ${name}`)
  }
  return found
}

/** Answers the reasons to ask, or nothing when the folder has no project code or is trusted already. */
export async function needsTrust(cwd: string, env: Record<string, string | undefined>): Promise<{ reasons: string[]; store: string } | undefined> {
  const store = trustStorePath({ home: env.HOME || undefined }, env)
  // A trusted folder, the usual start, is not read at all: its commands, skills and agents least of all.
  const trusted = await trustedBy(store, cwd).then((folder) => folder !== undefined, (err: unknown) => err as Error)
  if (trusted === true) return undefined
  const reasons = await projectCode(cwd)
  if (reasons.length === 0) return undefined
  // A record of trusted folders that cannot be read matters only when there is something to ask.
  if (trusted instanceof Error) throw trusted
  return { reasons, store }
}

/** Commands, skills and agents of the project whose frontmatter carries hooks: they run once invoked. */
async function frontmatterHooks(cwd: string): Promise<string[]> {
  const claude = join(cwd, '.claude')
  if (!existsSync(claude)) return []
  const quiet = () => {}
  const [commands, skills, agents] = await Promise.all([
    readCommands(join(claude, 'commands'), 'project', quiet), readSkills(join(claude, 'skills'), 'project', quiet), readAgentDir(join(claude, 'agents'), 'project', quiet),
  ])
  const files = [...commands, ...skills].filter((c) => c.hooks).map((c) => c.file).concat(agents.filter((a) => a.hooks).map((a) => a.source))
  return files.map((f) => `hooks in the frontmatter of ${relative(cwd, f)}`)
}

function hasEntries(json: unknown, key: string): boolean {
  const value = typeof json === 'object' && json !== null ? (json as Record<string, unknown>)[key] : undefined
  return typeof value === 'object' && value !== null && Object.keys(value).length > 0
}

/** The entries of a `permissions` object that an untrusted workspace would not honour (see permissions/policy.ts). */
function widening(permissions: unknown): string[] {
  if (!permissions || typeof permissions !== 'object') return []
  const p = permissions as { allow?: unknown; defaultMode?: unknown; additionalDirectories?: unknown }
  const listed = (v: unknown) => Array.isArray(v) && v.length > 0
  return [
    ...(listed(p.allow) ? ['allow rules'] : []),
    ...(typeof p.defaultMode === 'string' && !NARROW_MODES.has(p.defaultMode) ? [`defaultMode ${p.defaultMode}`] : []),
    ...(listed(p.additionalDirectories) ? ['additionalDirectories'] : []),
  ]
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8'))
  } catch {
    return undefined
  }
}
