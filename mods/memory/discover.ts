import { readFile, stat } from 'node:fs/promises'
import { dirname, join, parse, relative } from 'node:path'
import { listField, splitFrontmatter } from '../_shared/frontmatter.js'
import type { Candidate, MemoryType, ScopedRule } from './types.js'

/** Which kinds of memory file a session reads (the settings sources of the spec, plus managed policy). */
export type Source = 'managed' | 'user' | 'project' | 'local'

const SCOPE: Record<Source, string> = {
  managed: 'managed policy instructions for everyone on this machine',
  user: "the user's private instructions for all projects",
  project: 'project instructions, checked into the codebase',
  local: "the user's private instructions for this project, not checked in",
}

export interface Found {
  /** Files to read now, in reading order (broad to specific). */
  files: Candidate[]
  /** Rules with `paths:` frontmatter, read when a touched file matches. */
  scoped: ScopedRule[]
}

const isDir = (path: string) => stat(path).then((s) => s.isDirectory(), () => false)

export interface LevelOptions {
  /** The user's home: its `.claude` holds user memory, never read again as a project's. */
  home?: string
  /** Frontmatter a rule's author should fix (it was read leniently). */
  warn?: (message: string) => void
}

/**
 * The top of the directories read at start: the filesystem root, inside a repository too (spec
 * loop-and-sdk §4.3 walks every directory from the root down to cwd, as Claude Code does), so a
 * CLAUDE.md in a folder holding several repositories applies to each of them.
 */
export const startupTop = (cwd: string) => parse(cwd).root

/**
 * The memory files of one directory, in the order they are read: CLAUDE.md, .claude/CLAUDE.md,
 * the unscoped .claude/rules (same priority as .claude/CLAUDE.md), then CLAUDE.local.md, so the
 * personal file has the final word at its level. AGENTS.md comes last, read only when none of the
 * CLAUDE.md files said anything, as in Claude Code.
 */
export async function levelFiles(dir: string, sources: ReadonlySet<Source>, o: LevelOptions = {}): Promise<Found> {
  const found: Found = { files: [], scoped: [] }
  const claudeMds: string[] = []
  if (sources.has('project')) {
    claudeMds.push(join(dir, 'CLAUDE.md'))
    // At the home directory, .claude is the user's own memory (read as such), not a project's.
    if (dir !== o.home) claudeMds.push(join(dir, '.claude', 'CLAUDE.md'))
    found.files.push(...claudeMds.map((path): Candidate => ({ path, memory_type: 'Project', scope: SCOPE.project })))
    if (dir !== o.home) {
      const rules = await rulesIn(join(dir, '.claude', 'rules'), dir, 'Project', 'project rule', o.warn)
      found.files.push(...rules.files)
      found.scoped.push(...rules.scoped)
    }
  }
  if (sources.has('local')) {
    claudeMds.push(join(dir, 'CLAUDE.local.md'))
    found.files.push({ path: join(dir, 'CLAUDE.local.md'), memory_type: 'Local', scope: SCOPE.local })
  }
  if (sources.has('project')) found.files.push({ path: join(dir, 'AGENTS.md'), memory_type: 'Project', scope: SCOPE.project, fallbackFor: claudeMds })
  return found
}

/**
 * What a session reads at its start: managed policy, the user's files (~/.claude), each directory
 * from the filesystem root down to cwd, then the memory files of `extraDirs` (directories added
 * with --add-dir, when CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD asks for them).
 */
export async function startupFiles(options: {
  cwd: string
  extraDirs?: readonly string[]
  home: string
  managedPath: string | false
  sources: ReadonlySet<Source>
  warn?: (message: string) => void
}): Promise<Found> {
  const { cwd, home, sources } = options
  const found: Found = { files: [], scoped: [] }
  if (options.managedPath && sources.has('managed')) {
    found.files.push({ path: options.managedPath, memory_type: 'Managed', scope: SCOPE.managed })
  }
  if (sources.has('user')) {
    const user = (path: string): Candidate => ({ path, memory_type: 'User', scope: SCOPE.user })
    const claudeMd = join(home, '.claude', 'CLAUDE.md')
    found.files.push(user(claudeMd))
    // The user's scoped rules match paths of the project the session works in.
    const rules = await rulesIn(join(home, '.claude', 'rules'), cwd, 'User', "user's rule", options.warn)
    found.files.push(...rules.files, { ...user(join(home, '.claude', 'AGENTS.md')), fallbackFor: [claudeMd] })
    found.scoped.push(...rules.scoped)
  }
  const dirs = [...chain(startupTop(cwd), cwd), ...(options.extraDirs ?? [])]
  const levels = await Promise.all(dirs.map((dir) => levelFiles(dir, sources, { home, warn: options.warn })))
  for (const level of levels) {
    found.files.push(...level.files)
    found.scoped.push(...level.scoped)
  }
  return found
}

/** The directories from `top` down to `bottom`, both included (`bottom` must be inside `top`). */
export function chain(top: string, bottom: string): string[] {
  const dirs: string[] = []
  for (let d = bottom; ; d = dirname(d)) {
    dirs.unshift(d)
    if (d === top || dirname(d) === d) return dirs
  }
}

/** The `.md` files under a rules directory, sorted, split into unscoped and `paths:`-scoped ones. */
async function rulesIn(dir: string, base: string, memory_type: MemoryType, what: string, warn?: (message: string) => void): Promise<Found> {
  const found: Found = { files: [], scoped: [] }
  if (!(await isDir(dir))) return found
  const [{ glob }, picomatch] = await Promise.all([import('tinyglobby'), loadPicomatch()])
  const files = (await glob('**/*.md', { cwd: dir, absolute: true, dot: true, onlyFiles: true, expandDirectories: false })).sort()
  for (const path of files) {
    // Unreadable frontmatter is reported when the rule is read; here a bad block just means "unscoped".
    // A line read leniently is reported now: it may be `paths:`, and a scoped rule may never be read.
    const fm = splitFrontmatter(await readFile(path, 'utf8').catch(() => ''))
    if (fm.warning) warn?.(`${path}: ${fm.warning}`)
    const globs = listField(fm.data.paths)
    if (!globs) {
      found.files.push({ path, memory_type, scope: what, isRule: true })
      continue
    }
    const isMatch = picomatch(globs, { dot: true })
    found.scoped.push({
      path, memory_type, isRule: true, globs, base,
      scope: `${what} for files matching ${globs.join(', ')}`,
      matches: (rel) => rel !== '' && !rel.startsWith('..') && isMatch(rel),
    })
  }
  return found
}

type Picomatch = (glob: string | string[], options?: { dot?: boolean }) => (path: string) => boolean

async function loadPicomatch(): Promise<Picomatch> {
  const mod = (await import('picomatch')) as unknown as { default?: Picomatch } & Picomatch
  return mod.default ?? mod
}

/** The path of `file` relative to a rule's base, with `/` separators as globs expect. */
export function relativeTo(base: string, file: string): string {
  return relative(base, file).split('\\').join('/')
}
