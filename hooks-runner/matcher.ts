import { eventSpec, type HookEventName } from './events.js'

const EXACT = /^[A-Za-z0-9_\- ,|]+$/
const EXACT_STRICT = /^[A-Za-z0-9_|]+$/
// The tool formerly named Task is Agent; old matchers naming Task keep working (R14).
const ALIASES: Readonly<Record<string, string>> = { Task: 'Agent' }

// Matchers come from a handful of settings files, so compiled regexes are cached for the process.
const regexCache = new Map<string, RegExp | null>()

function compiled(pattern: string): RegExp | null {
  let re = regexCache.get(pattern)
  if (re === undefined) {
    try {
      re = new RegExp(pattern)
    } catch {
      re = null
    }
    regexCache.set(pattern, re)
  }
  return re
}

export type MatcherKind = 'all' | 'exact' | 'regex' | 'invalid'

/** How a matcher string is read on an event (spec §1.4 steps 1–5). */
export function matcherKind(matcher: string | undefined, event: HookEventName): MatcherKind {
  if (matcher === undefined || matcher === '' || matcher === '*') return 'all'
  if ((eventSpec(event).strictMatcher ? EXACT_STRICT : EXACT).test(matcher)) return 'exact'
  return compiled(matcher) ? 'regex' : 'invalid'
}

/**
 * Whether a matcher group runs for an event whose match value is `value` (spec §1.4):
 * omitted/`""`/`"*"` match all; a string of only letters, digits, `_`, `-`, space, `,` and `|` is an
 * exact, case-sensitive list split on `|` and `,`; anything else is an unanchored JavaScript regex;
 * a regex that does not compile matches nothing. Events without matcher support ignore the matcher.
 */
export function matcherMatches(matcher: string | undefined, value: string | undefined, event: HookEventName): boolean {
  if (eventSpec(event).match === null) return true
  const kind = matcherKind(matcher, event)
  if (kind === 'all') return true
  if (value === undefined || kind === 'invalid') return false
  if (kind === 'regex') return compiled(matcher!)!.test(value)
  const items = matcher!.split(eventSpec(event).strictMatcher ? '|' : /[|,]/)
  return items.some((raw) => {
    const item = raw.trim()
    return item === value || ALIASES[item] === value
  })
}

/**
 * The FileChanged watch list: each `|`-separated segment of a matcher is a literal file name in
 * the working directory (never a regex: `*` watches a file named `*`).
 */
export function fileChangedWatchList(matchers: readonly (string | undefined)[]): string[] {
  const names = new Set<string>()
  for (const m of matchers) for (const name of (m ?? '').split('|')) if (name.trim()) names.add(name.trim())
  return [...names]
}
