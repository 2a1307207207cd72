import { realpath } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { z } from 'zod'
import type { ModApi } from '../../core/mod/api.js'

/** The option every file-touching tool mod takes: directories beyond the session cwd it may use. */
export const allowedDirsOptions = z.object({
  /** Absolute, or relative to the session cwd. */
  additionalDirectories: z.array(z.string().min(1)).default([]),
})
export type AllowedDirsOptions = z.output<typeof allowedDirsOptions>

/** The `$.state` key under which the permissions mod publishes the session's extra working directories. */
export const DIRECTORIES_KEY = 'directories'

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((d): d is string => typeof d === 'string' && d !== '') : [])

/**
 * The extra directories a file tool may use in this session, asked per call because they can grow
 * while it runs: the tool mod's own option, the launch flags' (`--add-dir`, `additionalDirectories`)
 * and what the permissions mod holds (settings files, the config, directories granted by an approval).
 */
export async function sessionDirectories($: ModApi, own: readonly string[]): Promise<string[]> {
  const dirs = [...own, ...strings($.state.get({ plugin: 'permissions', key: DIRECTORIES_KEY }).value)]
  try {
    const flags = (await $.settings.read({ source: 'flag' })) as { permissions?: { additionalDirectories?: unknown } } | undefined
    dirs.push(...strings(flags?.permissions?.additionalDirectories))
  } catch {
    // A host without launch flags: the other sources still count.
  }
  return [...new Set(dirs)]
}

/**
 * The real path of `path`, following symlinks. A path that does not exist yet (a file Write will
 * create) resolves through its nearest existing ancestor, so a symlinked parent still counts.
 */
export async function realpathLoose(path: string): Promise<string> {
  const rest: string[] = []
  let current = path
  for (;;) {
    try {
      return join(await realpath(current), ...rest.reverse())
    } catch (err) {
      const parent = dirname(current)
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && (err as NodeJS.ErrnoException).code !== 'ENOTDIR') throw err
      if (parent === current) return path
      rest.push(basename(current))
      current = parent
    }
  }
}

export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))
}

/** The session cwd and the configured extra directories, as real paths. */
export async function allowedRoots(cwd: string, extra: readonly string[]): Promise<string[]> {
  return Promise.all([cwd, ...extra.map((d) => resolve(cwd, d))].map(realpathLoose))
}

export type PathCheck = { ok: true; path: string } | { ok: false; message: string }

/**
 * Checks a path a tool was given: absolute (unless `relativeTo` is set), and — after symlinks are
 * resolved — inside the allowed directories. Answers the real path to work on.
 */
export async function checkPath(
  given: string,
  cwd: string,
  extra: readonly string[],
  options: { field?: string; relativeTo?: string } = {},
): Promise<PathCheck> {
  const field = options.field ?? 'file_path'
  if (!isAbsolute(given) && options.relativeTo === undefined) {
    return { ok: false, message: `${field} must be an absolute path, but "${given}" is relative. Pass the full path, e.g. ${join(cwd, given)}` }
  }
  const absolute = resolve(options.relativeTo ?? cwd, given)
  const real = await realpathLoose(absolute)
  const roots = await allowedRoots(cwd, extra)
  if (roots.some((root) => isInside(root, real))) return { ok: true, path: real }
  const shown = real === absolute ? given : `${given} (which resolves to ${real})`
  return { ok: false, message: `${shown} is outside the directories this session may use: ${roots.join(', ')}. Work inside them, or add the directory to the session (--add-dir, additionalDirectories).` }
}
