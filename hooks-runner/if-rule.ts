import { homedir } from 'node:os'
import { isAbsolute, relative, resolve } from 'node:path'
import picomatch from 'picomatch'
import { splitShellCommands } from './shell-commands.js'

export interface IfContext {
  toolName: string
  toolInput: Record<string, unknown>
  /** The session's current directory: relative file patterns are anchored here. */
  cwd: string
  /** `/pattern` file rules are anchored at the project root. */
  projectDir: string
  home?: string
}

export interface IfVerdict {
  run: boolean
  /** Set when the rule's form is not understood: the hook runs anyway (the filter fails open). */
  unsupported?: string
}

const RULE = /^\s*([^()\s]+)\s*(?:\(([\s\S]*)\))?\s*$/
const FILE_TOOLS = new Set(['Read', 'Edit', 'Write', 'MultiEdit', 'NotebookEdit'])
const SHELL_TOOLS = new Set(['Bash', 'PowerShell'])
const ALIASES: Readonly<Record<string, string>> = { Task: 'Agent' }

/**
 * Evaluates a handler's `if` permission rule against a tool call (spec §1.5). Documented forms:
 * `Tool`, `Bash(git *)` / `Bash(npm run test:*)` over every subcommand, `Edit(src/**)` and other
 * file globs, `WebFetch(domain:host)`, `Agent(type)`, `Skill(name)`, `mcp__server` / `mcp__server__*`.
 * `if` is a spawn optimisation, not a security boundary: anything not understood runs the hook.
 */
export function ifRuleMatches(rule: string, ctx: IfContext): IfVerdict {
  const m = RULE.exec(rule)
  if (!m) return { run: true, unsupported: `cannot read rule "${rule}"` }
  const [, ruleTool, content] = m as unknown as [string, string, string | undefined]
  if (!toolMatches(ruleTool, ctx.toolName)) return { run: false }
  if (content === undefined || content.trim() === '' || content.trim() === '*') return { run: true }
  const input = ctx.toolInput
  const tool = ALIASES[ctx.toolName] ?? ctx.toolName
  if (SHELL_TOOLS.has(tool)) return { run: commandMatches(content.trim(), str(input.command)) }
  if (FILE_TOOLS.has(tool)) {
    const file = str(input.file_path) || str(input.notebook_path)
    return { run: file !== '' && pathMatches(content.trim(), file, ctx) }
  }
  if (tool === 'WebFetch' && content.startsWith('domain:')) return { run: domainMatches(content.slice(7).trim(), str(input.url)) }
  if (tool === 'Agent') return { run: wildcard(content.trim()).test(str(input.subagent_type)) }
  if (tool === 'Skill') return { run: wildcard(content.trim()).test(str(input.skill) || str(input.name)) }
  return { run: true, unsupported: `"${rule}": no argument matching is known for ${ctx.toolName}` }
}

const str = (v: unknown) => (typeof v === 'string' ? v : '')

function toolMatches(ruleTool: string, toolName: string): boolean {
  const rule = ALIASES[ruleTool] ?? ruleTool
  const tool = ALIASES[toolName] ?? toolName
  if (rule === tool) return true
  if (!rule.startsWith('mcp__')) return false
  // `mcp__server` and `mcp__server__*` cover every tool of that server.
  const server = rule.endsWith('__*') ? rule.slice(0, -1) : rule.split('__').length === 2 ? `${rule}__` : undefined
  if (server !== undefined) return tool.startsWith(server)
  return rule.includes('*') && wildcard(rule).test(tool)
}

/** `*` matches any run of characters; a trailing ` *` also matches the bare command (`git *` ⊇ `git`). */
function wildcard(pattern: string): RegExp {
  const tail = pattern.endsWith(' *')
  const body = (tail ? pattern.slice(0, -2) : pattern).split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')
  return new RegExp(`^${body}${tail ? '(?: .*)?' : ''}$`, 's')
}

function commandMatches(pattern: string, command: string): boolean {
  // The legacy prefix form `npm run test:*` means `npm run test` and anything after a space.
  const p = pattern.endsWith(':*') ? `${pattern.slice(0, -2)} *` : pattern
  const re = wildcard(p)
  const words = p.split(/\s+/)
  const moreThanName = words.length > 1 && !(words.length === 2 && words[1] === '*')
  const line = splitShellCommands(command)
  if (!line.parsed) return true
  // What runs is only known at run time, so a rule narrower than a command name cannot rule it out.
  if (moreThanName && line.dynamic) return true
  return re.test(command.trim()) || line.commands.some((c) => re.test(c))
}

function pathMatches(pattern: string, file: string, ctx: IfContext): boolean {
  const home = ctx.home ?? homedir()
  let base = ctx.cwd
  let glob = pattern
  if (pattern.startsWith('//')) return picomatch(pattern.slice(1), { dot: true })(resolve(ctx.cwd, file))
  let anchored = true
  if (pattern.startsWith('~/')) [base, glob] = [home, pattern.slice(2)]
  else if (pattern.startsWith('/')) [base, glob] = [ctx.projectDir, pattern.slice(1)]
  else if (pattern.startsWith('./')) glob = pattern.slice(2)
  else anchored = false
  const target = resolve(ctx.cwd, file)
  const rel = relative(base, target)
  // A pattern without a slash (`*.ts`, `.env`) names files at any depth, as in .gitignore.
  const test = picomatch(glob, { dot: true, basename: !glob.includes('/') })
  if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) return test(rel.split('\\').join('/'))
  // A file outside the current directory (the model cd'd away, or it is in an added directory):
  // an unanchored glob such as `*.ts` or `**/*.ts` still names it, as in Claude Code, where a
  // bare name (`a.txt`) and `src/**` (rooted at the cwd) do not: the path is tried from the root.
  const hasGlob = /[*?[{]/.test(glob)
  return !anchored && hasGlob && rel !== '' && test(target.split('\\').join('/').replace(/^([A-Za-z]:)?\/+/, ''))
}

function domainMatches(domain: string, url: string): boolean {
  try {
    const host = new URL(url).hostname.toLowerCase().replace(/\.$/, '')
    const d = domain.toLowerCase()
    return d.startsWith('*.') ? host.endsWith(d.slice(1)) : host === d
  } catch {
    return false
  }
}
