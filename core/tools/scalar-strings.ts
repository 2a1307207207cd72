import type { z } from 'zod'

// Models sometimes quote a number or a boolean ("offset": "10", "replace_all": "true"). Claude Code
// takes those; a refusal would only cost a round trip to send the same value unquoted.
const NUMBER = /^-?\d+(\.\d+)?$/

function unquoted(value: unknown, expected: unknown): unknown {
  if (typeof value !== 'string') return undefined
  if (expected === 'boolean') return value === 'true' ? true : value === 'false' ? false : undefined
  if (expected === 'number') return NUMBER.test(value.trim()) ? Number(value) : undefined
  return undefined
}

/**
 * A copy of `input` with each string that failed as a number or boolean replaced by the value it
 * spells, or undefined when some failure is not of that kind (then the input is refused as it was).
 */
export function unquoteScalars(input: unknown, issues: readonly z.core.$ZodIssue[]): unknown {
  const copy = structuredClone(input) as Record<PropertyKey, unknown>
  for (const issue of issues) {
    if (issue.code !== 'invalid_type' || issue.path.length === 0) return undefined
    let parent: Record<PropertyKey, unknown> = copy
    for (const key of issue.path.slice(0, -1)) parent = parent[key] as Record<PropertyKey, unknown>
    const key = issue.path.at(-1)!
    const fixed = unquoted(parent[key], issue.expected)
    if (fixed === undefined) return undefined
    parent[key] = fixed
  }
  return copy
}
