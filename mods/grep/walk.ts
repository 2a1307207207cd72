import { readdirSync, type Dirent } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { ignoredBy, loadIgnore, rootRules, rulesIn, type MakeIgnore, type Rules } from '../_shared/ignore-files.js'

// Loaded on the first search, not at start-up.
type Libs = { ignore: MakeIgnore; picomatch: typeof import('picomatch') }
let libs: Libs | undefined
async function load(): Promise<Libs> {
  if (!libs) {
    const [ignore, pm] = await Promise.all([loadIgnore(), import('picomatch')])
    libs = { ignore, picomatch: (pm as unknown as { default: Libs['picomatch'] }).default ?? pm }
  }
  return libs
}

/** Version-control directories are never searched, whatever the globs say. */
export const VCS_EXCLUDES = ['!.git', '!.svn', '!.hg', '!.bzr', '!.jj']
const YIELD_EVERY_MS = 8

interface Override { negate: boolean; dirOnly: boolean; test: (rel: string, name: string) => boolean }

const posix = (p: string) => (sep === '/' ? p : p.split(sep).join('/'))

/** A --glob override: without a slash it matches the name at any depth, with one the path from the root. */
function compileOverride(raw: string, { picomatch }: Libs): Override {
  const negate = raw.startsWith('!')
  let glob = negate ? raw.slice(1) : raw
  const dirOnly = glob.endsWith('/')
  if (dirOnly) glob = glob.slice(0, -1)
  const anchored = glob.includes('/')
  const match = picomatch(anchored ? glob.replace(/^\//, '') : glob, { dot: true })
  return { negate, dirOnly, test: (rel, name) => match(anchored ? rel : name) }
}

export interface WalkFilter {
  globs: readonly string[]
  /** Name globs of the `type` filter: a file must match one. */
  types?: readonly string[]
}

/**
 * The files under `root` that a ripgrep search with `--hidden` visits, in the order `--sort path`
 * visits them: each directory's entries sorted by name, depth first. Symlinks are not followed;
 * .ignore/.rgignore rules apply, and inside a git repository .gitignore, .git/info/exclude and the
 * global excludes too, deepest first; --glob overrides win over them.
 */
export async function* walkFiles(root: string, filter: WalkFilter, signal: AbortSignal): AsyncGenerator<string> {
  const lib = await load()
  const overrides = [...filter.globs, ...VCS_EXCLUDES].map((g) => compileOverride(g, lib))
  const whitelists = overrides.some((o) => !o.negate)
  const types = filter.types?.map((t) => lib.picomatch(t, { dot: true }))

  const verdict = (rel: string, name: string, isDir: boolean): 'include' | 'exclude' | undefined => {
    for (let i = overrides.length - 1; i >= 0; i--) {
      const o = overrides[i]!
      if (o.dirOnly && !isDir) continue
      if (o.test(rel, name)) return o.negate ? 'exclude' : 'include'
    }
    return whitelists && !isDir ? 'exclude' : undefined
  }

  const admitted = (path: string, name: string, isDir: boolean, rules: readonly Rules[]): boolean => {
    const v = verdict(posix(relative(root, path)), name, isDir)
    if (v) return v === 'include'
    if (ignoredBy(rules, path, isDir)) return false
    return isDir || !types || types.some((t) => t(name))
  }

  // Reads are synchronous (the promise API costs four thread-pool trips a file); the walk yields
  // to the event loop every few milliseconds so other work in the process keeps moving.
  let slice = performance.now()
  async function* visit(dir: string, inherited: readonly Rules[], inGit: boolean): AsyncGenerator<string> {
    let entries: Dirent[]
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      return
    }
    const names = new Set(entries.map((e) => e.name))
    const git = inGit || names.has('.git')
    const local = rulesIn(dir, lib.ignore, git, names)
    const rules = local.length > 0 ? [...inherited, ...local] : inherited
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    for (const entry of entries) {
      if (signal.aborted) return
      const isDir = entry.isDirectory()
      if (!isDir && !entry.isFile()) continue
      const path = join(dir, entry.name)
      if (!admitted(path, entry.name, isDir, rules)) continue
      if (isDir) yield* visit(path, rules, git)
      else yield path
      if (performance.now() - slice > YIELD_EVERY_MS) {
        await new Promise((resolve) => setImmediate(resolve))
        slice = performance.now()
      }
    }
  }

  const start = rootRules(root, lib.ignore)
  yield* visit(root, start.rules, start.git)
}
