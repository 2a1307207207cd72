import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import type { Ignore } from 'ignore'
import { globalExcludes } from './git-excludes.js'

/** Makes one gitignore-syntax matcher (the `ignore` package). */
export type MakeIgnore = (options?: { ignorecase?: boolean }) => Ignore

/** The rules one directory's ignore files hold, matched against paths relative to it. */
export interface Rules { dir: string; ig: Ignore }

// ripgrep's precedence inside one directory: .rgignore over .ignore over .gitignore over the
// repository's .git/info/exclude. The git ones count only inside a git repository, as in ripgrep.
const IGNORE_FILES = ['.git/info/exclude', '.gitignore', '.ignore', '.rgignore']
const GIT_ONLY = new Set(['.git/info/exclude', '.gitignore'])

let make: MakeIgnore | undefined
/** The `ignore` package, loaded on the first search that needs it, not at start-up. */
export async function loadIgnore(): Promise<MakeIgnore> {
  make ??= ((await import('ignore')) as unknown as { default: MakeIgnore }).default
  return make
}

const posix = (p: string) => (sep === '/' ? p : p.split(sep).join('/'))

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}

/** The ignore rules a directory holds; `names` (its entries, when known) spares opening files that are not there. */
export function rulesIn(dir: string, ignore: MakeIgnore, git: boolean, names?: ReadonlySet<string>): Rules[] {
  const found: Rules[] = []
  for (const file of IGNORE_FILES) {
    if ((!git && GIT_ONLY.has(file)) || (names && !names.has(file.split('/')[0]!))) continue
    const text = readText(join(dir, file))
    if (text !== undefined) found.push({ dir, ig: ignore({ ignorecase: false }).add(text) })
  }
  return found
}

/** The root's ancestors, outermost first. */
function ancestorsOf(root: string): string[] {
  const dirs: string[] = []
  for (let d = dirname(root); ; d = dirname(d)) {
    dirs.unshift(d)
    if (dirname(d) === d) break
  }
  return dirs
}

/**
 * The rules in force at the root: the user's global git excludes (lowest), then the ignore files of
 * the root's ancestors (ripgrep reads parent directories' rules). Git's rules count only when the
 * root is inside a git repository: ripgrep without --no-require-git skips them elsewhere.
 */
export function rootRules(root: string, ignore: MakeIgnore): { rules: Rules[]; git: boolean } {
  const ancestors = ancestorsOf(root)
  const git = [...ancestors, root].some((d) => existsSync(join(d, '.git')))
  const global = git ? globalExcludes() : undefined
  const rules = global === undefined ? [] : [{ dir: root, ig: ignore({ ignorecase: false }).add(global) }]
  return { rules: [...rules, ...ancestors.flatMap((d) => rulesIn(d, ignore, git))], git }
}

/** Whether `rules` (outermost first) ignore `path`: the deepest rule that names it decides. */
export function ignoredBy(rules: readonly Rules[], path: string, isDir: boolean): boolean {
  for (let i = rules.length - 1; i >= 0; i--) {
    const r = rules[i]!
    const result = r.ig.test(posix(relative(r.dir, path)) + (isDir ? '/' : ''))
    if (result.ignored) return true
    if (result.unignored) return false
  }
  return false
}
