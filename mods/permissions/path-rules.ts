import { relative, resolve, sep } from 'node:path'
import picomatch from 'picomatch'
import { isInside, realpathLoose } from '../_shared/allowed-paths.js'
import type { Behavior } from './types.js'

/**
 * A compiled Read/Edit path specifier. `glob` is matched against the path relative to `base`
 * (or to `realBase`, the same folder with symlinks resolved); an empty glob means the base
 * itself and everything beneath it.
 */
export interface PathPattern {
  written: string
  base: string
  realBase: string
  glob: string
  test: (relativePath: string) => boolean
}

/** A path as the tool was given it (made absolute) and as it resolves through symlinks. */
export interface PathFacts {
  lexical: string
  real: string
}

export interface PathContext {
  /** What `/path` is relative to: the folder holding the rule's `.claude/`, or the cwd. */
  root: string
  cwd: string
  home: string
  behavior: Behavior
}

/**
 * Compiles a gitignore-style specifier (spec loop-and-sdk §3.4): `//abs`, `~/in-home`, `/from-root`,
 * `./from-cwd` or `from-cwd`. A pattern without a slash (`.env`, `*.key`) matches at any depth; a
 * single-segment folder pattern (`src/**`) is `<cwd>/src` for allow and any `src` folder for deny
 * and ask. Answers the reason instead when the specifier cannot be read.
 */
export async function compilePath(spec: string, ctx: PathContext): Promise<PathPattern | string> {
  if (spec.trim() === '') return 'the path is empty'
  if (/^~[^/]/.test(spec)) return 'only ~/ (your own home) is understood, not ~user'
  let base: string
  let rest: string
  if (spec.startsWith('//')) [base, rest] = ['/', spec.slice(2)]
  else if (spec === '~' || spec.startsWith('~/')) [base, rest] = [ctx.home, spec.slice(2)]
  else if (spec.startsWith('/')) [base, rest] = [ctx.root, spec.slice(1)]
  else if (spec === '.' || spec.startsWith('./') || spec.startsWith('../')) [base, rest] = [ctx.cwd, spec]
  else {
    const body = spec.replace(/\/(\*\*)?$/, '')
    if (!spec.includes('/')) return finish(spec, ctx.behavior === 'allow' ? ctx.cwd : '/', `**/${body}`)
    if (!body.includes('/') && ctx.behavior !== 'allow') return finish(spec, '/', `**/${body}`)
    ;[base, rest] = [ctx.cwd, spec]
  }
  const scan = picomatch.scan(rest)
  if (!scan.isGlob) return finish(spec, resolve(base, rest), '')
  return finish(spec, resolve(base, scan.base), scan.glob)
}

async function finish(written: string, base: string, glob: string): Promise<PathPattern> {
  // picomatch's matcher function answers as its regex does (POSIX paths, no basename option) but
  // for a path spelt as the glob itself, at several times the cost; a search tests every file it finds.
  const re = glob === '' ? undefined : picomatch.makeRe(glob, { dot: true })
  const test = re ? (path: string) => path === glob || re.test(path) : () => true
  return { written, base, realBase: await realpathLoose(base), glob, test }
}

/**
 * `path` relative to `base` ('' for the base itself), or undefined when it lies outside. Both are
 * absolute and resolved, so on POSIX a string prefix answers as relative() does at a fraction of
 * its cost (~3 µs a call): Grep and Glob test every file they find against every deny rule.
 */
function within(base: string, path: string): string | undefined {
  if (sep !== '/') return isInside(base, path) ? relative(base, path).split(sep).join('/') : undefined
  if (path === base) return ''
  const cut = base.endsWith('/') ? base.length : base.length + 1
  return path.startsWith(base) && path[cut - 1] === '/' ? path.slice(cut) : undefined
}

/** A path matches when it or one of its parent folders matches (a matched folder covers its contents). */
function matchesFrom(p: PathPattern, base: string, path: string): boolean {
  const rel = within(base, path)
  if (rel === undefined) return false
  if (p.glob === '') return true
  if (rel === '') return p.glob === '**'
  for (let at = rel.indexOf('/'); at !== -1; at = rel.indexOf('/', at + 1)) if (p.test(rel.slice(0, at))) return true
  return p.test(rel)
}

export function pathMatches(p: PathPattern, path: string): boolean {
  return matchesFrom(p, p.base, path) || (p.realBase !== p.base && matchesFrom(p, p.realBase, path))
}

/** Symlinks: an allow needs both the link and its target to match; a deny or ask needs either. */
export function factsMatch(p: PathPattern, facts: PathFacts, behavior: Behavior): boolean {
  return behavior === 'allow'
    ? pathMatches(p, facts.lexical) && pathMatches(p, facts.real)
    : pathMatches(p, facts.lexical) || pathMatches(p, facts.real)
}

export async function pathFacts(given: string, cwd: string): Promise<PathFacts> {
  const lexical = resolve(cwd, given)
  return { lexical, real: await realpathLoose(lexical) }
}
