import { readdir, readFile, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { withPluginRoot } from '../_shared/loaded-plugins.js'
import { projectDirs } from '../_shared/repo-root.js'
import type { SettingSource } from '../_shared/setting-sources.js'
import { describeError } from '../../core/errors.js'
import { EFFORT_LEVELS, type EffortLevel } from '../../core/model/capabilities.js'
import { onFirstUse } from '../../core/on-first-use.js'
import { BUILT_IN_AGENTS } from './built-in.js'

/** An agent type the Agent tool can dispatch. */
export interface AgentDefinition {
  name: string
  description: string
  /** The subagent's whole system prompt. */
  prompt?: string
  tools?: string[]
  disallowedTools?: string[]
  model?: string
  maxTurns?: number
  source: string
  /** Where it was defined: a project's agent runs its hooks only in that trusted project folder. */
  scope: 'built-in' | 'user' | 'project' | 'config' | 'plugin'
  /** For a plugin's agent (named `plugin:name`): the plugin's name. */
  plugin?: string
  /** Frontmatter (or config) hooks, the settings-file shape: they run while a subagent of this type runs. */
  hooks?: Record<string, unknown>
  /** Skills whose instructions the subagent starts with, after its task (by the names the Skill tool takes). */
  skills?: string[]
  /** The effort its requests are sent with, unless the Agent call names one. */
  effort?: EffortLevel
  /** It runs in the background unless the Agent call says otherwise. */
  background?: boolean
  /** It starts without the memory files (CLAUDE.md and the like), as the read-only built-in types do. */
  omitClaudeMd?: boolean
}

export const agentConfig = onFirstUse(() => z.object({
  description: z.string(),
  prompt: z.string().optional(),
  tools: z.array(z.string()).optional(),
  disallowedTools: z.array(z.string()).optional(),
  model: z.string().optional(),
  maxTurns: z.number().int().positive().optional(),
  hooks: z.record(z.string(), z.unknown()).optional(),
  skills: z.array(z.string()).optional(),
  effort: z.enum(EFFORT_LEVELS).optional(),
  background: z.boolean().optional(),
}))

// Built on first use: only a run with agent files (user, project or plugin) reads frontmatter.
const frontmatter = onFirstUse(() => z.object({
  name: z.string().min(1),
  description: z.string().min(1),
  tools: z.union([z.string(), z.array(z.string())]).optional(),
  disallowedTools: z.union([z.string(), z.array(z.string())]).optional(),
  model: z.string().optional(),
  maxTurns: z.number().int().positive().optional(),
  hooks: z.record(z.string(), z.unknown(), { error: 'hooks must map event names to matcher groups, as in settings.json' }).optional(),
  skills: z.union([z.string(), z.array(z.string())]).optional(),
  effort: z.enum(EFFORT_LEVELS).optional(),
  background: z.boolean().optional(),
}).loose())

const list = (v: string | string[] | undefined) => (v === undefined ? undefined : (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))

/**
 * Reads `<dir>/*.md` agent files: YAML frontmatter, then the system prompt. Bad files are reported,
 * not fatal. A plugin's agents are named `plugin:name`, with `${CLAUDE_PLUGIN_ROOT}` filled in.
 */
export async function readAgentDir(dir: string, scope: 'user' | 'project' | 'plugin', warn: (message: string) => void, plugin?: { name: string; root: string }): Promise<AgentDefinition[]> {
  let names: string[]
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.md')).sort()
  } catch {
    return []
  }
  return readAgentFiles(names.map((n) => join(dir, n)), scope, warn, plugin)
}

/** A path a plugin manifest gives for agents: a directory of agent files, or one `.md` file. */
export async function readAgentPath(path: string, warn: (message: string) => void, plugin: { name: string; root: string }): Promise<AgentDefinition[]> {
  const info = await stat(path).catch(() => undefined)
  // Absent: the default directory of a plugin without agents (the loader reports a missing manifest path).
  if (!info) return []
  if (info.isDirectory()) return readAgentDir(path, 'plugin', warn, plugin)
  if (!path.endsWith('.md')) {
    warn(`${path}: an agent file must end in .md; skipped`)
    return []
  }
  return readAgentFiles([path], 'plugin', warn, plugin)
}

async function readAgentFiles(files: readonly string[], scope: 'user' | 'project' | 'plugin', warn: (message: string) => void, plugin?: { name: string; root: string }): Promise<AgentDefinition[]> {
  const out: AgentDefinition[] = []
  for (const file of files) {
    const text = await readAgentFile(file, warn)
    if (text === undefined) continue
    const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text)
    if (!m) {
      warn(`${file}: an agent file needs YAML frontmatter between --- lines`)
      continue
    }
    let meta: unknown
    try {
      meta = (await import('yaml')).parse(m[1]!)
    } catch (err) {
      warn(`${file}: malformed frontmatter: ${describeError(err)}`)
      continue
    }
    const parsed = frontmatter().safeParse(meta)
    if (!parsed.success) {
      warn(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'frontmatter'}: ${i.message}`).join('; ')}`)
      continue
    }
    const f = parsed.data
    // The agent types are keys of plain objects downstream (config, published hooks).
    if (f.name === '__proto__') {
      warn(`${file}: "__proto__" is not a usable agent name; skipped`)
      continue
    }
    const prompt = m[2]!.trim() || undefined
    out.push({
      name: plugin ? `${plugin.name}:${f.name}` : f.name, description: f.description, prompt: plugin && prompt ? withPluginRoot(prompt, plugin.root) : prompt, tools: list(f.tools),
      disallowedTools: list(f.disallowedTools), model: f.model, maxTurns: f.maxTurns, source: file, scope, ...(f.hooks ? { hooks: plugin ? withPluginRoot(f.hooks, plugin.root) : f.hooks } : {}),
      ...(plugin ? { plugin: plugin.name } : {}), ...extras({ skills: list(f.skills), effort: f.effort, background: f.background }),
    })
  }
  return out
}

/** The optional fields a definition sets, without the unset ones. */
export function extras(d: { skills?: string[]; effort?: EffortLevel; background?: boolean }): Pick<AgentDefinition, 'skills' | 'effort' | 'background'> {
  return { ...(d.skills?.length ? { skills: d.skills } : {}), ...(d.effort ? { effort: d.effort } : {}), ...(d.background !== undefined ? { background: d.background } : {}) }
}

/** A regular file's text; anything else (a directory, a FIFO that would block) or an unreadable file is reported and skipped. */
async function readAgentFile(file: string, warn: (message: string) => void): Promise<string | undefined> {
  try {
    if (!(await stat(file)).isFile()) {
      warn(`${file}: not a regular file; skipped`)
      return undefined
    }
    return await readFile(file, 'utf8')
  } catch (err) {
    warn(`${file}: cannot be read (${describeError(err)}); skipped`)
    return undefined
  }
}

/** A loaded plugin as far as its agents go. */
export interface PluginAgents { name: string; root: string; paths?: { agents?: readonly string[] } }

/** Every agent type: built-in (general-purpose, Explore, Plan), plugins' (`plugin:name`), then user (~/.claude/agents), project (each .claude/agents from the repository root to cwd), config — later ones win by name. */
export async function loadAgents(cwd: string, fromConfig: Record<string, z.output<ReturnType<typeof agentConfig>>>, warn: (m: string) => void, home = homedir(), plugins: readonly PluginAgents[] = [], sources: ReadonlySet<SettingSource> = new Set(['user', 'project'])): Promise<Map<string, AgentDefinition>> {
  const all = new Map<string, AgentDefinition>(BUILT_IN_AGENTS.map((a) => [a.name, a]))
  // A plugin's manifest `agents` paths, where it gives them, replace its `agents/` directory.
  for (const p of plugins) {
    for (const path of p.paths?.agents ?? [join(p.root, 'agents')]) for (const def of await readAgentPath(path, warn, p)) all.set(def.name, def)
  }
  // A user or project folder is read only when the launch's setting sources name it, as in Claude Code.
  if (sources.has('user')) for (const def of await readAgentDir(join(home, '.claude', 'agents'), 'user', warn)) all.set(def.name, def)
  // Each folder from the repository root down to cwd: the nearer wins a shared name.
  if (sources.has('project')) for (const dir of await projectDirs(cwd, home)) for (const def of await readAgentDir(join(dir, '.claude', 'agents'), 'project', warn)) all.set(def.name, def)
  for (const [name, def] of Object.entries(fromConfig)) all.set(name, { name, ...def, source: 'config', scope: 'config' })
  return all
}

/** An agent type by name; a plugin's also by its short name, when no other agent type holds or shares it. */
export function findAgent(agents: ReadonlyMap<string, AgentDefinition>, name: string): AgentDefinition | undefined {
  const exact = agents.get(name)
  if (exact) return exact
  const short = [...agents.values()].filter((a) => a.plugin && a.name === `${a.plugin}:${name}`)
  return short.length === 1 ? short[0] : undefined
}
