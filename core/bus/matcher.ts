import { ModloopError } from '../errors.js'

/**
 * A matcher filters the events a handler sees by their fields: a scalar compares with ===, a
 * RegExp tests the value as a string, an array is any-of, an object matches recursively, and
 * '*' matches any value. Against an array field, the pattern holds when some element matches.
 */
export type MatcherValue = string | number | boolean | null | RegExp | readonly MatcherValue[] | { readonly [k: string]: MatcherValue }
export type Matcher = { readonly [field: string]: MatcherValue }
export type Predicate = (e: unknown) => boolean

const MAX_DEPTH = 8

export function compileMatcher(matcher: Matcher, where: string): Predicate {
  return compileObject(matcher, where, 1)
}

function compileObject(pattern: Matcher, where: string, depth: number): Predicate {
  if (depth > MAX_DEPTH) {
    throw new ModloopError('MODLOOP_ERR_MATCHER', `${where}: matcher nested deeper than ${MAX_DEPTH} levels`)
  }
  const tests = Object.entries(pattern).map(([field, value]) => {
    const test = compileValue(value, `${where}.${field}`, depth)
    return (e: Record<string, unknown>) => test(e[field])
  })
  return (e) => {
    if (typeof e !== 'object' || e === null) return false
    for (const test of tests) if (!test(e as Record<string, unknown>)) return false
    return true
  }
}

function compileValue(value: MatcherValue, where: string, depth: number): Predicate {
  const one = compileOne(value, where, depth)
  return (v) => (Array.isArray(v) ? v.some(one) : one(v))
}

function compileOne(value: MatcherValue, where: string, depth: number): Predicate {
  if (value === '*') return () => true
  if (value instanceof RegExp) {
    const re = new RegExp(value.source, value.flags.replace(/[gy]/g, ''))
    return (v) => v !== undefined && re.test(String(v))
  }
  if (Array.isArray(value)) {
    const alternatives = value.map((alt, i) => compileOne(alt, `${where}[${i}]`, depth))
    return (v) => alternatives.some((test) => test(v))
  }
  if (typeof value === 'object' && value !== null) {
    const inner = compileObject(value as Matcher, where, depth + 1)
    return (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && inner(v)
  }
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') {
    throw new ModloopError('MODLOOP_ERR_MATCHER', `${where}: a matcher value must be a scalar, RegExp, array or object`)
  }
  return (v) => v === value
}
