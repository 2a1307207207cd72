import { readFile, realpath, stat } from 'node:fs/promises'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { splitFrontmatter } from '../_shared/frontmatter.js'
import { looksBinary } from '../_shared/text-file.js'
import { isInside } from '../_shared/allowed-paths.js'
import { findImports, stripBlockComments } from './markdown.js'
import type { Candidate, LoadedInstruction, MemoryEntry } from './types.js'

export interface ReaderOptions {
  home: string
  /** How many `@path` hops a chain of imports may take from the file that starts it. */
  maxDepth: number
  maxFileBytes: number
  warn: (message: string) => void
  /**
   * The project's real path (its repository root, or cwd outside one). A project or local memory
   * file comes with the repository, so its imports stay inside it unless `externalImports` says
   * yes: a cloned CLAUDE.md must not pull `@~/.aws/credentials` into the request. Asked only when
   * such an import is met (it may read the workspace trust store).
   */
  project?: string
  externalImports?: () => Promise<boolean>
  /** The settings' `claudeMdExcludes`: a file it matches (by path or real path) is not read, nor what it imports; the managed file always is. */
  excluded?: (path: string) => boolean
}

/** The load facts a file passes on: its own, or (for what it imports) `include` with itself as parent. */
type Load = Omit<LoadedInstruction, 'file_path' | 'memory_type'>

type Read = { text: string } | { problem: string; missing?: true }

/**
 * Reads memory files and, depth first, the files they import, so each import follows the file
 * that names it. One reader serves a session: an import cycle is reported once however often the
 * files are reached. `seen` (real paths) keeps a file from being read twice into the same context.
 */
export class MemoryReader {
  private readonly reportedCycles = new Set<string>()

  constructor(private readonly options: ReaderOptions) {}

  /** The candidate and what it imports; nothing when it does not exist or was already seen. */
  async read(candidate: Candidate, load: Load, seen: Set<string>): Promise<MemoryEntry[]> {
    const out: MemoryEntry[] = []
    const real = await realpath(candidate.path).catch(() => undefined)
    if (real === undefined || seen.has(real) || this.excludes(candidate, real)) return out
    await this.visit(candidate, real, load, [], seen, out)
    return out
  }

  private async visit(file: Candidate, real: string, load: Load, chain: string[], seen: Set<string>, out: MemoryEntry[]): Promise<void> {
    seen.add(real)
    const read = await readText(real, this.options.maxFileBytes)
    if ('problem' in read) {
      if (!read.missing) this.options.warn(`${file.path}: ${read.problem}; not loaded as memory`)
      return
    }
    // Frontmatter is metadata, not instructions: Claude Code drops it from every memory file, not
    // only from rules (where `paths:` lives), so a CLAUDE.md's `description:` never reaches the model.
    const fm = splitFrontmatter(read.text)
    if (fm.error && file.isRule) this.options.warn(`${file.path}: ${fm.error}; the rule loads without it`)
    const text = fm.body
    const entry: MemoryEntry = {
      file_path: file.path, memory_type: file.memory_type, ...load, scope: file.scope,
      content: stripBlockComments(text).trim(), notes: [],
    }
    if (entry.content !== '') out.push(entry)
    const here = [...chain, real]
    for (const ref of findImports(stripBlockComments(text, { keepLines: true }))) {
      const where = `${file.path}:${ref.line}`
      const target = this.resolveImport(ref.path, dirname(file.path))
      const targetReal = await realpath(target).catch(() => undefined)
      if (ref.unsure && !(targetReal && (await isFile(targetReal)))) continue
      if (here.length > this.options.maxDepth) {
        entry.notes.push(`@${ref.raw} (line ${ref.line}) was not imported: imports nest at most ${this.options.maxDepth} deep.`)
        continue
      }
      if (targetReal === undefined) {
        this.options.warn(`${where}: @${ref.raw} was not imported: ${target} does not exist`)
        entry.notes.push(`@${ref.raw} (line ${ref.line}) was not imported: ${target} does not exist.`)
        continue
      }
      if (await this.refusesExternal(file, targetReal)) {
        const why = `${target} is outside the project (${this.options.project}), and a project memory file imports from outside it only in a trusted workspace (\`modloop trust\`, --trust-workspace) or with the memory mod's externalImports option`
        this.options.warn(`${where}: @${ref.raw} was not imported: ${why}`)
        entry.notes.push(`@${ref.raw} (line ${ref.line}) was not imported: ${why}.`)
        continue
      }
      const loop = here.indexOf(targetReal)
      if (loop !== -1) {
        this.reportCycle([...here.slice(loop), targetReal], where, ref.raw, entry)
        continue
      }
      const imported: Candidate = { path: target, memory_type: file.memory_type, scope: `imported by ${file.path}` }
      if (seen.has(targetReal) || this.excludes(imported, targetReal)) continue
      await this.visit(imported, targetReal, { load_reason: 'include', parent_file_path: file.path, ...(load.trigger_file_path ? { trigger_file_path: load.trigger_file_path } : {}) }, here, seen, out)
    }
  }

  private excludes(file: Candidate, real: string): boolean {
    const { excluded } = this.options
    return excluded !== undefined && file.memory_type !== 'Managed' && (excluded(file.path) || excluded(real))
  }

  private async refusesExternal(file: Candidate, targetReal: string): Promise<boolean> {
    const { project, externalImports } = this.options
    if (project === undefined || (file.memory_type !== 'Project' && file.memory_type !== 'Local') || isInside(project, targetReal)) return false
    return !(await externalImports?.())
  }

  private resolveImport(path: string, from: string): string {
    if (path === '~' || path.startsWith('~/')) return join(this.options.home, path.slice(1))
    return isAbsolute(path) ? path : resolve(from, path)
  }

  private reportCycle(cycle: string[], where: string, raw: string, entry: MemoryEntry): void {
    // The same cycle reached from another member is the same cycle: key it by its members.
    const key = [...new Set(cycle)].sort().join('\u0000')
    if (this.reportedCycles.has(key)) return
    this.reportedCycles.add(key)
    const shown = cycle.join(' -> ')
    this.options.warn(`${where}: @${raw} was not imported again: the imports form a cycle (${shown})`)
    entry.notes.push(`@${raw} was not imported again: the imports form a cycle (${shown}).`)
  }
}

const isFile = (path: string) => stat(path).then((s) => s.isFile(), () => false)

async function readText(path: string, maxBytes: number): Promise<Read> {
  const info = await stat(path).catch(() => undefined)
  if (!info) return { problem: 'does not exist', missing: true }
  if (!info.isFile()) return { problem: 'is not a file' }
  if (info.size > maxBytes) return { problem: `is ${info.size} bytes, more than the ${maxBytes} a memory file may have` }
  const bytes = await readFile(path)
  if (looksBinary(bytes)) return { problem: 'is a binary file' }
  const text = bytes.toString('utf8')
  return { text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text }
}
