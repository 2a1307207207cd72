import { readlink as readlinkCallback, realpath as realpathCallback } from 'node:fs'
import { promisify } from 'node:util'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { z } from 'zod'
import type { ModApi } from '../../core/mod/api.js'
import { onFirstUse } from '../../core/on-first-use.js'

/** The option every file-touching tool mod takes: directories beyond the session cwd it may use. */
export const allowedDirsOptions = onFirstUse(() => z.object({
  /** Absolute, or relative to the session cwd. */
  additionalDirectories: z.array(z.string().min(1)).default([]),
}))
export type AllowedDirsOptions = z.output<ReturnType<typeof allowedDirsOptions>>

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((d): d is string => typeof d === 'string' && d !== '') : [])

/**
 * The extra directories a file tool may use in this session, asked per call because they can grow
 * while it runs: the tool mod's own option, the launch flags' (`--add-dir`, `additionalDirectories`)
 * and what the permissions mod holds (settings files, the config, directories granted by an approval).
 */
export async function sessionDirectories($: ModApi, own: readonly string[]): Promise<string[]> {
  const dirs = [...own, ...($.capability.use('permissions')?.directories() ?? [])]
  try {
    const flags = (await $.settings.read({ source: 'flag' })) as { additionalDirectories?: unknown } | undefined
    dirs.push(...strings(flags?.additionalDirectories))
  } catch {
    // A host without launch flags: the other sources still count.
  }
  return [...new Set(dirs)]
}

/**
 * Whether a file tool may work outside the session's directories. With the permissions mod loaded
 * every call is checked first, and a path outside them is asked about (or matched by a rule such as
 * Read(~/notes/**)): a call that reaches the tool was allowed by a rule, a hook, the mode or the
 * user, and refusing it here would make that answer void. Without the mod the directories are the
 * only fence, so they hold.
 */
export function confinementLifted($: ModApi): boolean {
  return $.capability.use('permissions') !== undefined
}

// The native realpath through the callback API: the same answer as fs/promises' for less of the
// event loop's time, which every file tool call pays.
const realpath = promisify(realpathCallback.native)
const readlink = promisify(readlinkCallback)
// As the kernel's limit on links followed in one path (a loop of links makes realpath fail with ELOOP first).
const MAX_LINK_HOPS = 40

/**
 * The real path of `path`, following symlinks. A path that does not exist yet (a file Write will
 * create) resolves through its nearest existing ancestor, so a symlinked parent still counts. A
 * symlink to nothing resolves to where it points: a write there creates its target rather than
 * replace the link, and the target is the path that must be inside the working directories.
 */
export async function realpathLoose(path: string): Promise<string> {
  const rest: string[] = []
  let current = path
  for (let hops = 0; ; ) {
    try {
      return join(await realpath(current), ...rest.reverse())
    } catch (err) {
      const parent = dirname(current)
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && (err as NodeJS.ErrnoException).code !== 'ENOTDIR') throw err
      if (parent === current) return path
      const target = hops < MAX_LINK_HOPS ? await readlink(current).catch(() => undefined) : undefined
      if (target !== undefined) {
        hops++
        current = resolve(parent, target)
        continue
      }
      rest.push(basename(current))
      current = parent
    }
  }
}

export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))
}

// Every file tool call checks its path against the same roots, and a batch of ten calls would
// resolve them ten times over (each realpath a trip to the thread pool): a resolution serves the
// calls of the next second. A root moved under a running session is seen a second later.
const ROOTS_FRESH_MS = 1_000
const resolvedRoots = new Map<string, { at: number; roots: Promise<string[]> }>()

/** The session cwd and the configured extra directories, as real paths. */
export function allowedRoots(cwd: string, extra: readonly string[]): Promise<string[]> {
  const key = [cwd, ...extra].join('\0')
  const now = performance.now()
  const known = resolvedRoots.get(key)
  if (known && now - known.at < ROOTS_FRESH_MS) return known.roots
  if (resolvedRoots.size >= 64) resolvedRoots.clear()
  const roots = Promise.all([cwd, ...extra.map((d) => resolve(cwd, d))].map(realpathLoose))
  resolvedRoots.set(key, { at: now, roots })
  roots.catch(() => resolvedRoots.delete(key))
  return roots
}

export type PathCheck = { ok: true; path: string } | { ok: false; message: string }

/**
 * Checks a path a tool was given: absolute (unless `relativeTo` is set), and — after symlinks are
 * resolved — inside the allowed directories, unless `anywhere` (a mode that lifts confinement).
 * Answers the real path to work on.
 */
export async function checkPath(
  given: string,
  cwd: string,
  extra: readonly string[],
  options: { field?: string; relativeTo?: string; anywhere?: boolean } = {},
): Promise<PathCheck> {
  const field = options.field ?? 'file_path'
  if (!isAbsolute(given) && options.relativeTo === undefined) {
    return { ok: false, message: `${field} must be an absolute path, but "${given}" is relative. Pass the full path, e.g. ${join(cwd, given)}` }
  }
  const absolute = resolve(options.relativeTo ?? cwd, given)
  if (options.anywhere) return { ok: true, path: await realpathLoose(absolute) }
  const [real, roots] = await Promise.all([realpathLoose(absolute), allowedRoots(cwd, extra)])
  if (roots.some((root) => isInside(root, real))) return { ok: true, path: real }
  const shown = real === absolute ? given : `${given} (which resolves to ${real})`
  return { ok: false, message: `${shown} is outside the directories this session may use: ${roots.join(', ')}. Work inside them, or add the directory to the session (--add-dir, additionalDirectories).` }
}
