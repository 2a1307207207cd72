import { partText, splitCommand, type Split } from './bash-split.js'
import { byName, stripForRules } from './bash-strip.js'
import { withAssignedValues } from './bash-vars.js'
import { factsMatch, pathFacts, type PathFacts } from './path-rules.js'
import { EDIT_TOOLS, pathOf, READ_TOOLS } from './tool-classes.js'
import type { Rule } from './types.js'

/** What rules are matched against, worked out once per call. */
export interface CallFacts {
  tool: string
  input: Record<string, unknown>
  /** File tools: the path, as given and as resolved. */
  path?: PathFacts
  /** Bash (and Monitor's command): the command split into its parts. */
  bash?: Split
  /** Bash: where the shell is (after an earlier `cd`), which its relative paths start from. */
  shellDir?: string
  /** WebFetch: the host of the URL, lower-case (undefined when the URL cannot be read). */
  host?: string
}

/**
 * Whether a rule speaks about this tool. `Read(...)` covers every reading tool and, for deny and
 * ask, the editing ones too (what may not be read may not be written); `Edit(...)` covers every
 * editing tool and, for allow, reading as well (what may be edited may be read).
 */
export function coversTool(rule: Rule, tool: string): boolean {
  const t = rule.tool
  if (t.kind === 'glob') return t.test(tool)
  if (t.kind === 'server') return tool.startsWith(`mcp__${t.server}__`)
  if (t.name === tool) return true
  const restricting = rule.behavior !== 'allow'
  if (t.name === 'Read') return READ_TOOLS.has(tool) || (restricting && rule.content !== undefined && EDIT_TOOLS.has(tool))
  if (t.name === 'Edit') return EDIT_TOOLS.has(tool) || (!restricting && rule.content !== undefined && READ_TOOLS.has(tool))
  return false
}

/** A bare name or a name glob: the tool is removed from the request when such a rule denies it. */
export function isWholeTool(rule: Rule): boolean {
  return rule.content === undefined
}

/**
 * Whether a rule matches a call. For Bash, a deny or ask rule matches when it matches any part
 * of the command (or the whole line, for rules written across parts); allow rules are matched
 * part by part by the caller, since every part must be allowed.
 */
export function matchesCall(rule: Rule, facts: CallFacts): boolean {
  if (!coversTool(rule, facts.tool) && !(facts.tool === WATCH_TOOL && coversTool(rule, 'Bash'))) return false
  const c = rule.content
  if (!c) return true
  switch (c.kind) {
    case 'param': {
      const v = facts.input[c.key]
      return (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') && c.test(String(v))
    }
    case 'command':
      if (facts.tool === 'Skill') return c.test(skillName(facts.input))
      if (!facts.bash) return false
      if (rule.behavior === 'allow') return facts.bash.balanced && facts.bash.parts.every((p) => c.test(partText(stripForRules(p.argv, 'allow'), p.redirects)))
      return c.test(facts.bash.whole) || withAssignedValues(facts.bash.parts).some((p) => {
        const argv = stripForRules(p.argv, 'deny')
        return c.test(partText(argv, p.redirects)) || c.test(partText(byName(argv), p.redirects))
      })
    case 'path':
      return facts.path !== undefined && factsMatch(c.pattern, facts.path, rule.behavior)
    case 'domain':
      return facts.host !== undefined && domainMatches(c.domain, facts.host)
    case 'agent': {
      const type = facts.input.subagent_type
      return (typeof type === 'string' && type !== '' ? type : 'general-purpose') === c.name
    }
  }
}

/**
 * Monitor runs a shell command as Bash does, so Bash's rules speak about its command too (spec
 * loop-and-sdk §3.4): `Bash(npm test)` allows `npm test` as a watch, `Bash(rm *)` denies it.
 */
export const WATCH_TOOL = 'Monitor'

/** Whether an allow rule approves one part of a Bash command. */
export function allowsPart(rule: Rule, text: string): boolean {
  if (rule.behavior !== 'allow' || !coversTool(rule, 'Bash')) return false
  return rule.content === undefined || (rule.content.kind === 'command' && rule.content.test(text))
}

/** `example.com` is that host; `*.example.com` is any subdomain of it, at any depth. */
export function domainMatches(domain: string, host: string): boolean {
  if (domain === '*') return true
  if (domain.startsWith('*.')) return host.endsWith(domain.slice(1))
  return host === domain
}

/** The skill a Skill call runs, as its rules name it: no leading `/`, and not its arguments (a rule on them would be slipped by other words). */
function skillName(input: Record<string, unknown>): string {
  const called = typeof input.skill === 'string' ? input.skill : typeof input.command === 'string' ? input.command.trim().split(/\s/)[0]! : ''
  return called.trim().replace(/^\//, '')
}

/** Works out the facts of one call; the input was validated by the tool's schema already. */
export async function callFacts(tool: string, input: unknown, cwd: string, shellDir?: string): Promise<CallFacts> {
  const record = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {}
  const path = pathOf(tool, record, cwd)
  return {
    tool, input: record,
    ...(path !== undefined ? { path: await pathFacts(path, cwd) } : {}),
    ...((tool === 'Bash' || tool === WATCH_TOOL) && typeof record.command === 'string' ? { bash: splitCommand(record.command), ...(shellDir ? { shellDir } : {}) } : {}),
    ...(tool === 'WebFetch' ? { host: hostOf(record.url) } : {}),
  }
}

function hostOf(url: unknown): string | undefined {
  try {
    return typeof url === 'string' ? new URL(url).hostname.toLowerCase().replace(/\.$/, '') : undefined
  } catch {
    return undefined
  }
}
