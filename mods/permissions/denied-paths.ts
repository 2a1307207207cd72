import { pathMatches } from './path-rules.js'
import { coversTool } from './rule-match.js'
import type { Rule } from './types.js'

/**
 * Whether a deny rule keeps `tool` from reading a file (`Read(./docs/**)`, `Read(*.key)`): the test
 * Grep and Glob run on each file they find, so a search shows nothing of what a Read of the file
 * would be refused, as in Claude Code. Undefined when no rule denies a path to this tool. The rules
 * are compiled already: a file costs a few string and regex tests, no permission check.
 */
export function deniedPaths(rules: readonly Rule[], tool: string): ((path: string) => boolean) | undefined {
  const patterns = rules.flatMap((r) => (r.behavior === 'deny' && r.content?.kind === 'path' && coversTool(r, tool) ? [r.content.pattern] : []))
  if (patterns.length === 0) return undefined
  // The path as the search found it (absolute, resolved), against each rule's folder as written and as resolved.
  return (path) => patterns.some((p) => pathMatches(p, path))
}
