import { existsSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path'
import { envTrue } from '../../core/env.js'
import { ignoredBy, loadIgnore, rootRules, rulesIn, type Rules } from '../_shared/ignore-files.js'

/** What Glob searches besides plain directories: hidden ones, and ones the ignore files exclude. */
export interface GlobSwitches {
  /** CLAUDE_CODE_GLOB_HIDDEN: hidden directories are searched. */
  hidden: boolean
  /** CLAUDE_CODE_GLOB_NO_IGNORE: .gitignore, .ignore and .rgignore are not applied. */
  noIgnore: boolean
}

/** A switch as Claude Code's Glob reads it: on when unset or empty, else only for `1`, `true`, `yes` or `on`. */
export const globSwitch = (value: string | undefined): boolean => !value || envTrue(value)

interface Dir { kept: boolean; rules: readonly Rules[]; git: boolean }

const posix = (p: string) => (sep === '/' ? p : p.split(sep).join('/'))

/**
 * Which matches under `root` a ripgrep file walk (`rg --files --glob <pattern>`, as Claude Code's Glob
 * runs it) reaches when a switch is off; undefined when both are on and every match counts. As in
 * ripgrep the pattern outranks the rest: a file it matches is listed even if hidden or ignored, and a
 * directory it matches is entered (`**` enters every one). Any other hidden directory is skipped
 * without `hidden`, any other ignored one without `noIgnore` (git's rules only inside a repository).
 */
export async function walkFilter(root: string, pattern: string, { hidden, noIgnore }: GlobSwitches): Promise<((file: string) => boolean) | undefined> {
  if (hidden && noIgnore) return undefined
  const ignore = noIgnore ? undefined : await loadIgnore()
  const pm = await import('picomatch')
  const picomatch = (pm as unknown as { default: typeof import('picomatch') }).default ?? pm
  // ripgrep's "dir/**" matches what is inside dir, not dir itself; picomatch's matches both.
  const entered = picomatch(pattern.endsWith('/**') ? `${pattern}/*` : pattern, { dot: true })

  const start = ignore ? rootRules(root, ignore) : { rules: [], git: false }
  const own = ignore ? rulesIn(root, ignore, start.git) : []
  const dirs = new Map<string, Dir>([[root, { kept: true, rules: [...start.rules, ...own], git: start.git }]])
  const dirOf = (dir: string): Dir => {
    const known = dirs.get(dir)
    if (known) return known
    const parent = dirOf(dirname(dir))
    const kept = parent.kept && (entered(posix(relative(root, dir))) ||
      ((hidden || !basename(dir).startsWith('.')) && !(ignore && ignoredBy(parent.rules, dir, true))))
    let { rules, git } = parent
    if (kept && ignore) {
      git ||= existsSync(join(dir, '.git'))
      const local = rulesIn(dir, ignore, git)
      if (local.length > 0) rules = [...rules, ...local]
    }
    const found = { kept, rules, git }
    dirs.set(dir, found)
    return found
  }
  // A match outside the root (an absolute or "../" pattern) is not part of the walk.
  const inRoot = (file: string) => {
    const rel = relative(root, file)
    return rel !== '' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)
  }
  return (file) => !inRoot(file) || dirOf(dirname(file)).kept
}
