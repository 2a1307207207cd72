import { readdir, realpath, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { readJsonObject } from '../mods/_shared/json-file.js'
import { encodeCwd, isSessionId, modloopHome, projectDir } from '../mods/transcripts/store/paths.js'
import { trustStorePath } from '../mods/permissions/trust-store.js'

/**
 * What `modloop purge` deletes, found before anything is deleted so `--dry-run` and the
 * confirmation show the whole list. Everything lives under MODLOOP_HOME: a project's sessions
 * (transcripts, traces, locks, and each session's folder of subagents, checkpoints and saved tool
 * results), the task lists of those sessions, its prompt history, and its workspace entries in
 * the trust store.
 */
export interface PurgeItem {
  kind: 'dir' | 'file' | 'trust'
  /** The path to delete; for `trust`, the workspace whose entries leave the trust store. */
  path: string
  reason: string
}

type Env = Record<string, string | undefined>

/** The trust store's records keyed by workspace path: trust, reviewed hooks, approved .mcp.json servers. */
const TRUST_KEYS = ['workspaces', 'hooks', 'mcpServers'] as const

export async function planProject(project: string, env: Env): Promise<PurgeItem[]> {
  // Sessions are kept under the cwd as given, the trust store under the real path: look under both.
  const paths = [...new Set([resolve(project), await realpath(project).catch(() => resolve(project))])]
  const home = modloopHome(env)
  const items: PurgeItem[] = []
  const sessionDirs = (await Promise.all(paths.map(async (p) => ((await exists(projectDir(p, env))) ? projectDir(p, env) : undefined)))).filter((d) => d !== undefined)
  for (const dir of new Set(sessionDirs)) {
    for (const id of await sessionIds(dir)) {
      const tasks = join(home, 'tasks', id)
      if (await exists(tasks)) items.push({ kind: 'dir', path: tasks, reason: `tasks for session ${id}` })
    }
  }
  for (const dir of new Set(sessionDirs)) items.push({ kind: 'dir', path: dir, reason: 'project transcripts (.jsonl), traces, checkpoints and subagents' })
  for (const p of paths) {
    const history = join(home, 'history', `${encodeCwd(p)}.jsonl`)
    if (await exists(history)) items.push({ kind: 'file', path: history, reason: 'prompts typed in this project' })
  }
  const store = await readJsonObject(trustStorePath({ home: env.HOME || undefined }, env))
  for (const p of paths) {
    if (TRUST_KEYS.some((key) => Object.hasOwn(records(store, key), p))) items.push({ kind: 'trust', path: p, reason: 'trust and reviewed hooks and MCP servers of this workspace' })
  }
  return items
}

export async function planAll(env: Env): Promise<PurgeItem[]> {
  const home = modloopHome(env)
  const items: PurgeItem[] = []
  const dirs = [['projects', 'all project transcripts (.jsonl), traces, checkpoints and subagents'], ['tasks', 'all session task lists'], ['history', 'prompt history across all projects']] as const
  for (const [name, reason] of dirs) if (await exists(join(home, name))) items.push({ kind: 'dir', path: join(home, name), reason })
  const file = trustStorePath({ home: env.HOME || undefined }, env)
  const store = await readJsonObject(file)
  const workspaces = new Set(TRUST_KEYS.flatMap((key) => Object.keys(records(store, key))))
  for (const p of workspaces) items.push({ kind: 'trust', path: p, reason: 'trust and reviewed hooks and MCP servers of this workspace' })
  return items
}

async function sessionIds(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[])
  return names.filter((n) => n.endsWith('.jsonl') && isSessionId(n.slice(0, -6))).map((n) => n.slice(0, -6)).sort()
}

export function records(store: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = store[key]
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}
}

const exists = (path: string) => stat(path).then(() => true, () => false)
