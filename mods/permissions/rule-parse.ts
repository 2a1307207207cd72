import picomatch from 'picomatch'
import { normalizePattern } from './bash-split.js'
import { compilePath } from './path-rules.js'
import { PRIMARY_FIELDS, TOOL_ALIASES } from './tool-classes.js'
import type { Behavior, Content, Rule, RuleSource, ToolPattern } from './types.js'
import { commandPattern, wildcard } from './wildcard.js'

export interface ParseContext {
  cwd: string
  home: string
}

const RULE = /^([^()\s]+)(?:\((.*)\))?$/s
const PARAM = /^([A-Za-z_][A-Za-z0-9_]*):(.*)$/s

/**
 * Reads one rule (spec loop-and-sdk §3.4): `Tool`, `Tool(*)`, `Tool(specifier)`, a tool-name glob,
 * `mcp__server`, or a parameter match `Tool(param:value)`. Answers the rule, or why it cannot be
 * used — the caller names the file and moves on to the next rule.
 */
export async function parseRule(written: string, behavior: Behavior, source: RuleSource, ctx: ParseContext): Promise<Rule | string> {
  const text = written.trim()
  const m = RULE.exec(text)
  if (!m) return 'is not of the form Tool or Tool(specifier)'
  const name = TOOL_ALIASES[m[1]!] ?? m[1]!
  const spec = m[2] === '*' ? undefined : m[2]
  if (spec !== undefined && spec.trim() === '') return 'has an empty specifier: write Tool or Tool(*) for every call'
  const tool = toolPattern(name, behavior)
  if (typeof tool === 'string') return tool
  const base = { text, behavior, source, tool }
  if (spec === undefined) return base
  if (tool.kind !== 'name') return 'names tools by a pattern, which takes no specifier'
  const content = await contentOf(name, spec, behavior, source, ctx)
  return typeof content === 'string' ? content : { ...base, content }
}

/**
 * A Skill rule names skills, never their arguments, as in Claude Code: `Skill(deploy)` is that
 * skill however it is called, a leading `/` is the same name, and a trailing ` *` or `:*` takes
 * every name it starts (`Skill(tools:*)` is each skill of the tools plugin).
 */
function skillPattern(spec: string): (name: string) => boolean {
  const name = spec.trim().replace(/^\//, '')
  return wildcard(/(?: |:)\*$/.test(name) ? `${name.slice(0, -2).trimEnd()}*` : name)
}

function toolPattern(name: string, behavior: Behavior): ToolPattern | string {
  if (name.includes('*')) {
    // An allow glob must not reach beyond one server's tools (spec §3.4).
    if (behavior === 'allow' && !/^mcp__[^*_]+(?:_[^*_]+)*__/.test(name)) return 'uses a tool-name glob, which an allow rule may only use after mcp__<server>__'
    return { kind: 'glob', glob: name, test: picomatch(name, { dot: true }) }
  }
  if (name.startsWith('mcp__') && !name.slice(5).includes('__')) return { kind: 'server', server: name.slice(5) }
  return { kind: 'name', name }
}

async function contentOf(tool: string, spec: string, behavior: Behavior, source: RuleSource, ctx: ParseContext): Promise<Content | string> {
  const param = PARAM.exec(spec)
  const legacyPrefix = tool === 'Bash' && spec.endsWith(':*')
  const isDomain = tool === 'WebFetch' && param?.[1] === 'domain'
  // A Skill rule's specifier is a skill's name, and a plugin's skills are named `plugin:skill`.
  if (param && !legacyPrefix && !isDomain && tool !== 'Skill') {
    const [, key, value] = param
    if (PRIMARY_FIELDS.has(key!)) return `matches ${key}, the field ${tool}(...) itself matches; write ${tool}(${value}) instead`
    if (behavior === 'allow') return 'is a parameter match, which only deny and ask rules may use'
    return { kind: 'param', key: key!, test: wildcard(value!) }
  }
  switch (tool) {
    case 'Bash':
      return { kind: 'command', pattern: spec, test: commandPattern(normalizePattern(spec)) }
    case 'Skill':
      return { kind: 'command', pattern: spec, test: skillPattern(spec) }
    case 'Read':
    case 'Edit': {
      const pattern = await compilePath(spec, { root: source.root, cwd: ctx.cwd, home: ctx.home, behavior })
      return typeof pattern === 'string' ? pattern : { kind: 'path', pattern }
    }
    case 'Write':
    case 'MultiEdit':
    case 'NotebookEdit':
      return `is never consulted: Edit(${spec}) covers ${tool}`
    case 'Glob':
    case 'Grep':
    case 'NotebookRead':
      return `is never consulted: Read(${spec}) covers ${tool}`
    case 'WebFetch':
      if (!isDomain) return 'needs the form WebFetch(domain:example.com)'
      return param![2]!.trim() === '' ? 'names no domain' : { kind: 'domain', domain: param![2]!.trim().toLowerCase().replace(/\.$/, '') }
    case 'Agent':
      return { kind: 'agent', name: spec.trim() }
    default:
      return `takes no specifier: ${tool} rules are the bare name or a parameter match like ${tool}(field:value)`
  }
}

/** The text of a rule an update names (`{toolName, ruleContent}`). */
export function ruleText(rule: { toolName: string; ruleContent?: string }): string {
  return rule.ruleContent === undefined || rule.ruleContent === '' ? rule.toolName : `${rule.toolName}(${rule.ruleContent})`
}
