import { basename, dirname, resolve, sep } from 'node:path'
import picomatch from 'picomatch'
import { isInside } from '../_shared/allowed-paths.js'

/** Tools that read files; `Read(...)` rules cover them all. */
export const READ_TOOLS = new Set(['Read', 'Grep', 'Glob', 'NotebookRead', 'LSP'])
/** Tools that change files; `Edit(...)` rules cover them all. */
export const EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit'])
/**
 * Tools that need no approval: they keep session state, read what a permitted call produced, or
 * start a subagent whose own calls are checked one by one, or only talk to the user. A scheduled prompt (CronCreate) is such
 * state: when it runs, its turn's calls are checked like any other's.
 */
export const NO_APPROVAL = new Set(['EnterPlanMode', 'SendMessage', 'ListAgents', 'TodoWrite', 'TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate', 'BashOutput', 'KillShell', 'Agent', 'StructuredOutput', 'SendUserMessage', 'ListMcpResourcesTool', 'ReadMcpResourceTool', 'CronCreate', 'CronDelete', 'CronList'])
/**
 * What plan mode lets run without asking: tools that only read. Bash joins them when every part of
 * its command does. (ExitPlanMode is decided on its own: it always asks in plan mode.)
 */
export const PLAN_TOOLS = new Set([...READ_TOOLS, 'EnterPlanMode', 'WebFetch', 'WebSearch', 'TodoWrite', 'TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate', 'Agent', 'BashOutput', 'StructuredOutput', 'SendUserMessage', 'ListMcpResourcesTool', 'ReadMcpResourceTool'])
/** Old names rules may use. */
export const TOOL_ALIASES: Readonly<Record<string, string>> = { Task: 'Agent' }
/** Fields a parameter match may not name: they are what the tool's own specifier matches. */
export const PRIMARY_FIELDS = new Set(['command', 'file_path', 'path', 'notebook_path', 'url'])

/** The file or folder a file tool works on (searches default to the cwd). */
export function pathOf(tool: string, input: Record<string, unknown>, cwd: string): string | undefined {
  const field = tool === 'Grep' || tool === 'Glob' ? 'path' : tool.startsWith('Notebook') ? 'notebook_path' : 'file_path'
  if (!READ_TOOLS.has(tool) && !EDIT_TOOLS.has(tool)) return undefined
  const given = input[field]
  if (typeof given === 'string' && given !== '') return resolve(cwd, given)
  return tool === 'Grep' || tool === 'Glob' ? cwd : undefined
}

// Where a write can change how tools, shells or this runtime behave next time.
const PROTECTED_DIRS = new Set(['.git', '.claude', '.vscode', '.idea', '.husky', '.modloop'])
const PROTECTED_FILES = new Set([
  '.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshrc', '.zprofile', '.zshenv', '.zlogin',
  '.zlogout', '.npmrc', '.mcp.json', '.claude.json', '.gitconfig', '.gitmodules',
])

/** A write to this path is never approved without asking, except in bypassPermissions. */
export function isProtected(path: string): boolean {
  if (PROTECTED_FILES.has(basename(path))) return true
  const segments = path.split(sep)
  return segments.some((s, i) => PROTECTED_DIRS.has(s) && !(s === '.claude' && segments[i + 1] === 'worktrees'))
}

/**
 * An `rm`/`rmdir` target that would take too much with it (spec §3.3): the root and its direct
 * children, the home folder, the cwd and its parents, a glob right under an additional
 * directory, and anything under a shell variable (where it points is not known here). A relative
 * target starts from `from`, where the shell is.
 */
export function isCriticalTarget(target: string, cwd: string, home: string, extraDirs: readonly string[], from = cwd): boolean {
  if (/[$`]/.test(target)) return true
  const expanded = target === '~' || target.startsWith('~/') ? home + target.slice(1) : target
  const scan = picomatch.scan(expanded)
  // A glob counts only when it takes everything in its folder (`*`, `.*`, `**`), not `*.log`.
  if (scan.isGlob && !/^[*.]+\/?$/.test(scan.glob)) return false
  const path = resolve(from, scan.isGlob ? scan.base || '.' : expanded)
  if (path === '/' || dirname(path) === '/' || path === home || isInside(path, cwd)) return true
  return scan.isGlob && extraDirs.includes(path)
}
