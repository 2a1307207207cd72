import { dirname } from 'node:path'
import type { PermissionUpdate } from './persist.js'
import type { CallFacts } from './rule-match.js'
import { EDIT_TOOLS, READ_TOOLS } from './tool-classes.js'

// A compound command's "always allow" saves at most this many per-part rules (spec loop-and-sdk §3.4).
const MAX_PART_RULES = 5

/**
 * What an approver could answer with to stop being asked (canUseTool's `suggestions`): the command
 * parts no rule allowed, kept in the local settings; the folder of a file read outside the working
 * directories, for this session; accepting edits for this session, and for an edit outside the
 * working directories its folder too (accepting edits alone would not cover the next one there);
 * the WebFetch domain or the tool, kept in the local settings.
 */
export function suggestionsFor(facts: CallFacts, unapproved: readonly string[], outside = false): PermissionUpdate[] {
  const allow = (rules: { toolName: string; ruleContent?: string }[]): PermissionUpdate[] =>
    [{ type: 'addRules', rules, behavior: 'allow', destination: 'localSettings' }]
  if (facts.bash) {
    if (!facts.bash.balanced || unapproved.length === 0 || unapproved.length > MAX_PART_RULES) return []
    return allow(unapproved.map((part) => ({ toolName: 'Bash', ruleContent: part })))
  }
  if (READ_TOOLS.has(facts.tool) && facts.path) {
    const folder = facts.tool === 'Read' ? dirname(facts.path.lexical) : facts.path.lexical
    return [{ type: 'addDirectories', directories: [folder], destination: 'session' }]
  }
  if (EDIT_TOOLS.has(facts.tool)) {
    const accept: PermissionUpdate = { type: 'setMode', mode: 'acceptEdits', destination: 'session' }
    if (!outside || !facts.path) return [accept]
    return [accept, { type: 'addDirectories', directories: [dirname(facts.path.lexical)], destination: 'session' }]
  }
  if (facts.tool === 'WebFetch') return facts.host ? allow([{ toolName: 'WebFetch', ruleContent: `domain:${facts.host}` }]) : []
  return allow([{ toolName: facts.tool }])
}

/** The path a file tool's ask is about, when it lies outside the working directories. */
export function blockedPathOf(facts: CallFacts, outside: boolean): string | undefined {
  return outside && facts.path ? facts.path.lexical : undefined
}
