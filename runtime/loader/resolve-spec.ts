import { existsSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, extname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { ModloopError } from '../../core/errors.js'
import { sharedJiti } from './jiti.js'
import { isPluginDir } from './plugin.js'
import type { Builtins, Origin } from './types.js'

/** What a mod specifier names. `name` is the fallback mod name when the module does not give one. */
export type Target =
  | { kind: 'builtin'; spec: string; name: string; load: () => Promise<unknown> }
  | { kind: 'module'; spec: string; name: string; file: string; root: string; version?: string }
  | { kind: 'plugin'; spec: string; root: string }

const MOD_EXTS = ['.ts', '.mts', '.js', '.mjs']

export function isPathSpec(spec: string): boolean {
  return spec === '.' || spec === '..' || /^\.\.?[\\/]/.test(spec) || /^(?:[\\/]|[A-Za-z]:[\\/])/.test(spec)
}

/**
 * Resolves a mod specifier: a built-in name, a path (relative to the config's directory) to a
 * module file or a directory, or a package name resolved from that directory. A plugin
 * directory (`.claude-plugin/plugin.json`) is a plugin whichever way it is named.
 * Nothing found → MODLOOP_ERR_MOD_RESOLVE naming the specifier and where it was looked for.
 */
export async function resolveSpec(spec: string, origin: Origin, builtins: Builtins): Promise<Target> {
  if (Object.hasOwn(builtins.mods, spec)) return { kind: 'builtin', spec, name: spec, load: builtins.mods[spec]! }
  const target = isPathSpec(spec) ? resolvePath(spec, origin) : await resolvePackage(spec, origin)
  if (target) return target
  const what = isPathSpec(spec) ? `no file or directory ${resolve(origin.dir, spec)}` : `no built-in mod and no package of that name from ${origin.dir}`
  throw new ModloopError('MODLOOP_ERR_MOD_RESOLVE', `mod "${spec}" not found: ${what} (named in ${origin.label})`, {
    file: origin.file, stage: 'resolve',
  })
}

function resolvePath(spec: string, origin: Origin): Target | undefined {
  const abs = resolve(origin.dir, spec)
  const found = [abs, ...MOD_EXTS.map((e) => abs + e)].find((p) => existsSync(p))
  if (!found) return undefined
  if (!statSync(found).isDirectory()) {
    return { kind: 'module', spec, name: basename(found, extname(found)), file: found, root: resolve(found, '..') }
  }
  if (isPluginDir(found)) return { kind: 'plugin', spec, root: found }
  return directoryModule(spec, found)
}

/** A directory that is not a plugin: its package.json `main`, else index.ts / index.js. */
function directoryModule(spec: string, dir: string): Target | undefined {
  const pkg = readPackage(dir)
  const candidates = typeof pkg?.main === 'string'
    ? [resolve(dir, pkg.main), ...MOD_EXTS.map((e) => resolve(dir, pkg.main as string) + e)]
    : MOD_EXTS.map((e) => join(dir, `index${e}`))
  const file = candidates.find((p) => existsSync(p) && statSync(p).isFile())
  if (!file) return undefined
  return { kind: 'module', spec, name: packageName(pkg) ?? basename(dir), file, root: dir, version: packageVersion(pkg) }
}

async function resolvePackage(spec: string, origin: Origin): Promise<Target | undefined> {
  const name = packageNameOf(spec)
  const dir = findPackageDir(name, origin.dir)
  if (dir && spec === name && isPluginDir(dir)) return { kind: 'plugin', spec, root: dir }
  // jiti resolves with the ESM conditions (import, node) and knows .ts entries.
  const jiti = await sharedJiti()
  const url = jiti.esmResolve(spec, { parentURL: pathToFileURL(join(origin.dir, '_')).href, try: true })
  if (!url) return undefined
  const file = url.startsWith('file:') ? fileURLToPath(url) : url
  const pkg = dir ? readPackage(dir) : undefined
  return {
    kind: 'module', spec, file, root: dir ?? resolve(file, '..'),
    name: spec === name ? (packageName(pkg) ?? name) : spec,
    version: packageVersion(pkg),
  }
}

/** `@scope/pkg/sub` → `@scope/pkg`; `pkg/sub` → `pkg`. */
function packageNameOf(spec: string): string {
  const parts = spec.split('/')
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!
}

/** The directory of an installed package, looked up the way Node looks up node_modules from `fromDir`. */
export function findPackageDir(name: string, fromDir: string): string | undefined {
  const paths = createRequire(join(fromDir, '_')).resolve.paths(name) ?? []
  return paths.map((p) => join(p, name)).find((d) => existsSync(join(d, 'package.json')))
}

type PackageJson = Record<string, unknown>

export function readPackage(dir: string): PackageJson | undefined {
  const file = join(dir, 'package.json')
  if (!existsSync(file)) return undefined
  try {
    const pkg: unknown = JSON.parse(readFileSync(file, 'utf8'))
    return typeof pkg === 'object' && pkg !== null ? (pkg as PackageJson) : undefined
  } catch {
    // An unreadable package.json only costs the fallback name and version; the import reports the rest.
    return undefined
  }
}

const packageName = (pkg: PackageJson | undefined) => (typeof pkg?.name === 'string' && pkg.name ? pkg.name : undefined)
const packageVersion = (pkg: PackageJson | undefined) => (typeof pkg?.version === 'string' ? pkg.version : undefined)
