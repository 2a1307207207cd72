import { existsSync, readFileSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { describeError, isModloopError, ModloopError, type ErrorCode } from '../../core/errors.js'
import { describeImportFailure } from './import-module.js'
import { sharedJiti } from './jiti.js'
import { assertMayImport } from './import-gate.js'
import { findPackageDir, isPathSpec } from './resolve-spec.js'

export const SEARCH_PLACES = [
  'package.json',
  '.modlooprc',
  '.modlooprc.json',
  '.modlooprc.yaml',
  '.modlooprc.yml',
  'modloop.config.ts',
  'modloop.config.mts',
  'modloop.config.js',
  'modloop.config.mjs',
  'modloop.config.json',
]

export interface FoundConfig {
  file: string
  /** The file's contents as loaded, not yet validated. */
  raw: unknown
}

type Explorer = { search(from: string): Promise<{ config: unknown; filepath: string } | null>; load(file: string): Promise<{ config: unknown; filepath: string } | null> }

/**
 * A cosmiconfig explorer for the `modloop` module name. TS and JS configs go through the shared
 * jiti instance (never Node's own type stripping). The strategy 'none' searches one directory per
 * call: `findConfig` walks upward itself, so the search stops exactly at home or the root and
 * never reads a global config directory.
 */
async function explorer(): Promise<Explorer> {
  const { cosmiconfig } = await import('cosmiconfig')
  const load = async (file: string) => {
    assertMayImport(file, 'config')
    const jiti = await sharedJiti()
    try {
      return await jiti.import(file, { default: true })
    } catch (err) {
      throw new ModloopError('MODLOOP_ERR_CONFIG', `${file}: the config failed to import: ${describeImportFailure(err)}`, { file, stage: 'config', cause: err })
    }
  }
  return cosmiconfig('modloop', {
    searchPlaces: SEARCH_PLACES,
    searchStrategy: 'none',
    cache: false,
    // Every config that is code goes through the gated import: a `.cjs` named by `extends` or
    // --config included, which cosmiconfig's own loader would have run without asking.
    loaders: { '.ts': load, '.mts': load, '.cts': load, '.js': load, '.mjs': load, '.cjs': load, '.json': loadJson },
  })
}

/**
 * JSON configs (and package.json) by JSON.parse: cosmiconfig's own JSON loader brings a parser and
 * a code-frame printer that cost more to load than the whole config read; JSON.parse's message
 * quotes where the mistake is.
 */
function loadJson(file: string, content: string): unknown {
  try {
    return JSON.parse(content)
  } catch (err) {
    throw new ModloopError('MODLOOP_ERR_CONFIG', `${file}: not valid JSON: ${describeError(err)}`, { file, stage: 'config', cause: err })
  }
}

/** Searches `cwd` and each directory above it, up to the home directory or the filesystem root. */
export async function findConfig(cwd: string): Promise<FoundConfig | undefined> {
  const stop = resolve(homedir())
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    // A directory with no candidate file, or only a package.json without the key, needs no
    // cosmiconfig: in a directory tree with no config at all, start-up never imports it.
    if (SEARCH_PLACES.some((place) => existsSync(join(dir, place)) && (place !== 'package.json' || !holdsNoConfig(join(dir, place))))) {
      const ex = await explorer()
      const found = await attempt(() => ex.search(dir), dir)
      if (found) return { file: found.filepath, raw: found.config }
    }
    if (dir === stop || dirname(dir) === dir) return undefined
  }
}

/**
 * Whether a package.json, the one candidate in its directory, gives cosmiconfig nothing: no
 * `modloop` key. Nearly every JavaScript project has one, and importing cosmiconfig only to learn
 * that cost a start ~30 ms. One that does not parse fails here with the message cosmiconfig's
 * search would give; one that cannot be read is left to cosmiconfig.
 */
function holdsNoConfig(file: string): boolean {
  let content: string
  try {
    content = readFileSync(file, 'utf8')
  } catch {
    return false
  }
  if (content.trim() === '') return true
  const pkg = loadJson(file, content)
  // cosmiconfig's own reading of the key: a `null` document makes it throw, so that is left to it.
  return pkg !== null && (pkg as Record<string, unknown>).modloop == null
}

/**
 * Loads a config named by `ref`: a file, a directory holding a config (searched in that directory
 * only), or an installed package (its package.json `modloop` key or a config file at its root).
 * A bare name (`my-agent`, `examples/x`) is first a path from `fromDir` when one exists there —
 * `init distribution` makes such directories — and otherwise a package.
 * Nothing there → `notFound` (MODLOOP_ERR_CONFIG for --config, MODLOOP_ERR_EXTENDS for extends).
 */
export async function loadConfigRef(ref: string, fromDir: string, notFound: ErrorCode, label: string): Promise<FoundConfig> {
  const ex = await explorer()
  const missing = (what: string) => new ModloopError(notFound, `${label}: "${ref}": ${what}`, { file: label, stage: 'config' })
  const abs = resolve(fromDir, ref)
  let dir: string | undefined
  if (isPathSpec(ref) || existsSync(abs)) {
    if (!existsSync(abs)) throw missing(`no such file or directory ${abs}`)
    if (!statSync(abs).isDirectory()) {
      const found = await attempt(() => ex.load(abs), abs)
      return { file: abs, raw: found?.config ?? {} }
    }
    dir = abs
  } else {
    dir = findPackageDir(ref, fromDir)
    if (!dir) throw missing(`no file or directory ${abs}, and no package of that name is installed from ${fromDir}`)
  }
  const found = await attempt(() => ex.search(dir), dir)
  if (!found) throw missing(`${dir} holds no modloop config (${SEARCH_PLACES.join(', ')})`)
  return { file: found.filepath, raw: found.config }
}

async function attempt<T>(run: () => Promise<T>, where: string): Promise<T> {
  try {
    return await run()
  } catch (err) {
    if (isModloopError(err)) throw err
    // cosmiconfig stamps the file it was reading on parse errors.
    const file = (err as { filepath?: string }).filepath ?? where
    throw new ModloopError('MODLOOP_ERR_CONFIG', `${file}: cannot read the config: ${describeError(err)}`, { file, stage: 'config', cause: err })
  }
}
