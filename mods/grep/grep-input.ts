import { z } from 'zod'
import { builtinInput } from '../_shared/builtin-input.js'

export const grepInput = builtinInput('Grep', () => {
  const count = z.number().int().min(0)
  return z.object({
    pattern: z.string().min(1).describe('The regular expression to search file contents for (ripgrep syntax)'),
    path: z.string().optional().describe('The file or directory to search (default: the session working directory)'),
    glob: z.string().optional().describe('Only search files matching this glob, e.g. "*.js" or "*.{ts,tsx}"; several may be given separated by spaces'),
    type: z.string().optional().describe('Only search files of this type, e.g. js, ts, py, rust, go, md, json (faster than glob for standard types)'),
    output_mode: z.enum(['content', 'files_with_matches', 'count']).optional().default('files_with_matches')
      .describe('"content": matching lines; "files_with_matches": file paths (default); "count": matches per file'),
    '-i': z.boolean().optional().describe('Case-insensitive search'),
    '-n': z.boolean().optional().describe('Show line numbers (content mode; default true)'),
    '-A': count.optional().describe('Lines to show after each match (content mode)'),
    '-B': count.optional().describe('Lines to show before each match (content mode)'),
    '-C': count.optional().describe('Lines to show before and after each match (content mode)'),
    context: count.optional().describe('Same as -C'),
    multiline: z.boolean().optional().describe('Let patterns span lines; "." also matches newlines (default false)'),
    head_limit: count.optional().describe('Show only the first N lines or entries (default 250; 0 for all)'),
    offset: count.optional().describe('Skip the first N lines or entries, to page through results (default 0)'),
  })
})
export type GrepInput = z.output<ReturnType<typeof grepInput>>

export const GREP_DESCRIPTION = `Searches file contents with a regular expression (ripgrep syntax), fast in any size of codebase.
- Use Grep for content searches rather than grep or rg through Bash.
- Full regex syntax, e.g. "log.*Error" or "function\\s+\\w+". Literal braces need escaping: "interface\\{\\}" finds "interface{}".
- Filter files with glob ("*.js", "**/*.tsx") or type ("js", "py", "rust").
- output_mode: "files_with_matches" (default) lists matching files newest first; "content" shows matching lines (with -A/-B/-C context, -n line numbers); "count" shows matches per file.
- By default a line is matched on its own; set multiline to true for patterns that span lines.
- Files ignored by .gitignore, binary files and .git are skipped.
- Results stop at head_limit (default 250); use offset to see more.`

/** What the engines need, after defaults are applied. */
export interface SearchSpec {
  pattern: string
  /** Real, absolute path of the file or directory searched. */
  root: string
  rootIsFile: boolean
  mode: 'content' | 'files_with_matches' | 'count'
  ignoreCase: boolean
  lineNumbers: boolean
  before: number
  after: number
  multiline: boolean
  globs: string[]
  type?: string
  /** Stop once this many output lines exist (content mode); Infinity for all. */
  stopAfter: number
  /** Files a deny rule keeps from being read: left out of the search and of every line it prints. */
  denied?: (path: string) => boolean
  signal: AbortSignal
}

export function specOf(input: GrepInput, root: string, rootIsFile: boolean, signal: AbortSignal): SearchSpec {
  const context = input['-C'] ?? input.context ?? 0
  const limit = input.head_limit ?? 250
  return {
    pattern: input.pattern, root, rootIsFile, mode: input.output_mode,
    ignoreCase: input['-i'] === true, lineNumbers: input['-n'] ?? true,
    before: input['-B'] ?? context, after: input['-A'] ?? context, multiline: input.multiline === true,
    globs: input.glob ? splitGlobs(input.glob) : [], type: input.type,
    // One line more than is shown tells whether the results were cut.
    stopAfter: input.output_mode === 'content' && limit > 0 ? (input.offset ?? 0) + limit + 1 : Infinity,
    signal,
  }
}

/** Several globs in one string: split at spaces and at commas outside braces ("*.{ts,tsx}" stays whole). */
export function splitGlobs(value: string): string[] {
  const out: string[] = []
  let depth = 0
  let current = ''
  for (const ch of value) {
    if (ch === '{') depth++
    else if (ch === '}') depth = Math.max(0, depth - 1)
    if ((ch === ',' && depth === 0) || /\s/.test(ch)) {
      if (current) out.push(current)
      current = ''
    } else current += ch
  }
  if (current) out.push(current)
  return out
}
