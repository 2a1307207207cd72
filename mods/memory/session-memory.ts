import { stat } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { isInside } from '../_shared/allowed-paths.js'
import { chain, levelFiles, relativeTo, startupFiles, startupTop, type Source } from './discover.js'
import type { MemoryIndex } from './auto-memory.js'
import type { MemoryReader } from './reader.js'
import type { Candidate, LoadedInstruction, MemoryEntry, ScopedRule } from './types.js'

export interface SessionMemoryOptions {
  cwd: string
  /** Directories added to the session whose memory files are read at start too. */
  extraDirs?: readonly string[]
  home: string
  managedPath: string | false
  sources: ReadonlySet<Source>
  /** Whether touching files loads nested memory and scoped rules. */
  lazy: boolean
  warn?: (message: string) => void
}

/** What one agent's context already holds: each subagent has its own context, so its own sets. */
interface Scope {
  /** Real paths of the memory files in this context. */
  seen: Set<string>
  /** Directories whose memory files were looked for. */
  visited: Set<string>
  /** Scoped rules already delivered. */
  rules: Set<string>
}

/**
 * One session's memory: the files read at its start (for the first user message) and the ones
 * loaded later as tools touch files. Every load is recorded with its reason (see `loads`).
 */
export class SessionMemory {
  readonly startup: MemoryEntry[] = []
  /** Every load, in order; the mod's `memory` capability lists them. */
  readonly loads: LoadedInstruction[] = []
  /** True until the first prompt reaches the model (false from the start in a resumed conversation). */
  firstPromptPending = true
  /** Auto memory, when on: its folder and MEMORY.md as read at start (the first user message carries it). */
  auto?: { dir: string; index?: MemoryIndex }
  private readonly scoped: ScopedRule[] = []
  private readonly scopes = new Map<string, Scope>()
  /** What the startup files put in a context: a subagent starts with them too. */
  private startupScope: Omit<Scope, 'rules'> = { seen: new Set(), visited: new Set() }

  constructor(private readonly options: SessionMemoryOptions, private readonly reader: MemoryReader) {}

  async start(): Promise<void> {
    const { cwd } = this.options
    const found = await startupFiles(this.options)
    const main = this.scope('')
    for (const dir of chain(startupTop(cwd), cwd)) main.visited.add(dir)
    this.startup.push(...(await this.readAll(found.files, { load_reason: 'session_start' }, main.seen)))
    this.scoped.push(...found.scoped)
    this.startupScope = { seen: new Set(main.seen), visited: new Set(main.visited) }
    this.record(this.startup)
  }

  /**
   * A context that opens with the startup files alone: a subagent's (see the memory mod's
   * agent.spawn), or one just compacted. Touching their directories brings nothing twice; what
   * tools loaded before is loaded again.
   */
  startAgent(agent: string): void {
    this.scopes.set(agent, { seen: new Set(this.startupScope.seen), visited: new Set(this.startupScope.visited), rules: new Set() })
  }

  /**
   * The memory a touch of `path` brings into an agent's context (`agent` '' is the main one):
   * memory files of the directories between cwd and the path, and scoped rules whose
   * globs match it. Each is delivered once per context.
   */
  async touch(path: string, agent: string, kind?: 'file'): Promise<MemoryEntry[]> {
    if (!this.options.lazy) return []
    const { cwd } = this.options
    const target = resolve(cwd, path)
    // A path a tool read or wrote as a file needs no stat to say where its directory is: a trip
    // to the thread pool on every file tool call, in the gap before the next request.
    const dir = kind === 'file' ? dirname(target) : await dirOf(target)
    if (dir === undefined) return []
    const scope = this.scope(agent)
    const out: MemoryEntry[] = []
    // Only directories below cwd: Claude Code loads no CLAUDE.md for a file elsewhere in the
    // repository (a sibling of cwd), nor outside it.
    for (const d of isInside(cwd, dir) ? chain(cwd, dir).slice(1) : []) {
      if (scope.visited.has(d)) continue
      scope.visited.add(d)
      const level = await levelFiles(d, this.options.sources, { home: this.options.home, warn: this.options.warn })
      for (const rule of level.scoped) if (!this.scoped.some((r) => r.path === rule.path)) this.scoped.push(rule)
      out.push(...(await this.readAll(level.files, { load_reason: 'nested_traversal', trigger_file_path: target }, scope.seen)))
    }
    for (const rule of this.scoped) {
      if (scope.rules.has(rule.path) || !rule.matches(relativeTo(rule.base, target))) continue
      scope.rules.add(rule.path)
      out.push(...(await this.reader.read(rule, { load_reason: 'path_glob_match', globs: rule.globs, trigger_file_path: target }, scope.seen)))
    }
    this.record(out)
    return out
  }

  /** Reads candidates in order; a fallback (AGENTS.md) only when the files it stands in for gave no text. */
  private async readAll(files: readonly Candidate[], load: Parameters<MemoryReader['read']>[1], seen: Set<string>): Promise<MemoryEntry[]> {
    const out: MemoryEntry[] = []
    for (const file of files) {
      if (file.fallbackFor?.some((path) => out.some((e) => e.file_path === path))) continue
      out.push(...(await this.reader.read(file, load, seen)))
    }
    return out
  }

  private scope(agent: string): Scope {
    let scope = this.scopes.get(agent)
    if (!scope) this.scopes.set(agent, (scope = { seen: new Set(), visited: new Set(), rules: new Set() }))
    return scope
  }

  private record(entries: readonly MemoryEntry[]): void {
    for (const { scope: _s, content: _c, notes: _n, ...load } of entries) this.loads.push(load)
  }
}

/** The directory a touched path stands for: itself, or the one holding it; undefined when it does not exist. */
async function dirOf(target: string): Promise<string | undefined> {
  const info = await stat(target).catch(() => undefined)
  if (!info) return undefined
  return info.isDirectory() ? target : dirname(target)
}
