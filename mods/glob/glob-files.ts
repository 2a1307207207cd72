import { stat } from 'node:fs/promises'
import { z } from 'zod'
import type { ToolContext, ToolOutput } from '../../core/tools/tool.js'
import { allowedRoots, checkPath, isInside } from '../_shared/allowed-paths.js'
import { failure } from '../_shared/register-tool.js'
import { walkFilter, type GlobSwitches } from './skipped-dirs.js'
import { builtinInput } from '../_shared/builtin-input.js'

export const globInput = builtinInput('Glob', () => z.object({
  pattern: z.string().min(1).describe('The glob pattern to match files against, e.g. "**/*.ts" or "src/**/index.{js,ts}"'),
  path: z.string().optional().describe('The directory to search in (default: the session working directory). Omit it rather than passing "undefined" or "null"'),
}))
export type GlobInput = z.output<ReturnType<typeof globInput>>

/** Glob's description, true to what the session's switches search. */
export function globDescription({ hidden, noIgnore }: GlobSwitches): string {
  const dots = hidden ? 'hidden files are included' : 'hidden files are included, hidden directories only where the pattern matches the directory itself ("**" does)'
  const ignores = noIgnore ? '.gitignore is not applied: ignored files are found too.' : 'Directories that .gitignore, .ignore or .rgignore exclude are skipped unless the pattern matches them; a file the pattern matches is listed even if ignored.'
  return `Finds files by name with a glob pattern, fast in any size of codebase.
- Patterns like "**/*.js" or "src/**/*.{ts,tsx}"; ${dots}.
- ${ignores}
- A pattern without a slash matches file names at any depth: "*.ts" finds every .ts file.
- Matching file paths come back newest first (by modification time).
- .git and node_modules are skipped, unless the pattern names them (node_modules/**/package.json).
- For an open-ended search that needs several rounds of globbing and grepping, plan the rounds, and run independent searches in one response.`
}

export interface GlobOptions extends Partial<GlobSwitches> {
  additionalDirectories: readonly string[]
  /** Outside the directories too: the permissions mod checked the path (confinementLifted). */
  anywhere?: boolean
  ignore: readonly string[]
  maxResults: number
  /** The files Read deny rules cover (the permissions mod's deniedPaths): never listed. */
  denied?: (path: string) => boolean
}

export async function globTool(input: GlobInput, ctx: ToolContext, options: GlobOptions): Promise<ToolOutput> {
  const started = performance.now()
  const checked = await checkPath(input.path ?? ctx.cwd, ctx.cwd, options.additionalDirectories, { field: 'path', relativeTo: ctx.cwd, anywhere: options.anywhere })
  if (!checked.ok) return failure(checked.message)
  const base = await stat(checked.path).catch(() => undefined)
  if (!base) return failure(`Directory does not exist: ${input.path}`)
  if (!base.isDirectory()) return failure(`path must be a directory, but ${input.path} is a file. Omit path, or pass the directory that contains it.`)

  // Loaded on the first Glob call, not at start-up.
  const { glob } = await import('tinyglobby')
  // Without a slash a pattern matches names at any depth, as a ripgrep glob does in Claude Code's Glob.
  const pattern = input.pattern.includes('/') ? input.pattern : `**/${input.pattern}`
  const reached = await walkFilter(checked.path, pattern, { hidden: options.hidden ?? true, noIgnore: options.noIgnore ?? true })
  const found = await glob(pattern, {
    // Symlinks are not followed or listed, as ripgrep's file walk (Claude Code's Glob) leaves them: a link
    // back up the tree would list the same files again under a second path.
    cwd: checked.path, absolute: true, dot: true, onlyFiles: true, expandDirectories: false, followSymbolicLinks: false,
    ignore: ignoresFor(input.pattern, options.ignore), signal: ctx.signal,
  })
  // An absolute pattern or "../" may reach past the allowed directories; those matches are dropped,
  // as are the files a deny rule keeps from being read and those in directories ripgrep's walk would
  // not enter (hidden or ignored ones, as the switches say): counts and the cap see none of them.
  const roots = await allowedRoots(ctx.cwd, options.additionalDirectories)
  const allowed = found.filter((f) => roots.some((r) => isInside(r, f)) && !options.denied?.(f) && (!reached || reached(f)))
  const dated = await Promise.all(allowed.map(async (file) => ({ file, mtime: await stat(file).then((s) => s.mtimeMs, () => 0) })))
  dated.sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
  const truncated = dated.length > options.maxResults
  const filenames = dated.slice(0, options.maxResults).map((d) => d.file)

  const result = { filenames, durationMs: Math.round(performance.now() - started), numFiles: filenames.length, truncated }
  if (filenames.length === 0) return { result, text: 'No files found' }
  const note = truncated ? `\n(Results are truncated: showing the ${filenames.length} newest of ${dated.length} matches. Use a more specific path or pattern.)` : ''
  return { result, text: filenames.join('\n') + note }
}

// The ignore globs that apply to `pattern`: one that hides a directory everywhere (node_modules,
// .git) is dropped when the pattern names that directory itself (node_modules/**/package.json,
// .git/HEAD): the model asked for what it would hide, and "No files found" would be a wrong answer.
function ignoresFor(pattern: string, ignore: readonly string[]): string[] {
  const named = new Set(pattern.split('/'))
  return ignore.filter((g) => {
    const dir = /^\*\*\/([^/*?[\]{}!]+)\/\*\*$/.exec(g)?.[1]
    return !(dir && named.has(dir))
  })
}
