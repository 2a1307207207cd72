import { realpathSync } from 'node:fs'
import { resolve, sep } from 'node:path'
import type { Distribution, LoadOptions } from '../runtime/loader/types.js'
import { PACKAGE_ROOT } from '../core/version.js'
import type { Io } from './io.js'
import { pluginDirSpecs } from './plugin-dirs.js'
import { settingsPlugins } from '../runtime/plugin-store/settings-plugins.js'
import type { OptionSpecs, Values } from './command.js'

/** The options of every command that loads a distribution. */
export const LOAD_OPTIONS = {
  config: { type: 'string' },
  mod: { type: 'string', multiple: true },
  'plugin-dir': { type: 'string', multiple: true },
  'strict-mods': { type: 'boolean' },
  'trust-workspace': { type: 'boolean' },
} as const satisfies OptionSpecs

export const LOAD_USAGE = '[--config PATH] [--mod SPEC]... [--plugin-dir DIR]... [--strict-mods] [--trust-workspace]'

/** Loads the distribution the command line names and binds its host. */
export async function loadFromArgs(values: Values, io: Io): Promise<Distribution> {
  const dist = await loadForReview({
    cwd: io.cwd,
    configPath: typeof values.config === 'string' ? values.config : undefined,
    extraMods: [...(Array.isArray(values.mod) ? values.mod.map(String) : []), ...pluginDirSpecs(values, io.cwd, io.env)],
    strict: values['strict-mods'] === true,
    // The plugins a session here would load from the settings, so the review lists them too.
    settingsPlugins: settingsPlugins({ env: io.env, trustWorkspace: values['trust-workspace'] === true || (await isTrusted(io, io.cwd)) }, io.cwd),
  }, values, io)
  dist.host.bind()
  return dist
}

/**
 * Loads a distribution for a command that reviews a project (`mods list`, `hooks list`,
 * `permissions check`, …). In a folder not trusted (`modloop trust`), and without
 * `--trust-workspace`, no project code is imported: a config that is code, mod modules and
 * plugin modules are held back (MODLOOP_ERR_UNTRUSTED, naming each file), and what the project
 * would load is listed from the files' text — the config's JSON, plugin manifests and hooks.
 * Files named on the command line (`--config`, `--mod`) and modloop's own are imported.
 */
export async function loadForReview(options: Omit<LoadOptions, 'builtins'>, values: Values, io: Io): Promise<Distribution> {
  const { loadDistribution } = await import('../entry.js')
  const named = [options.configPath, ...(options.extraMods ?? []).map((m) => (typeof m === 'string' ? m : m[0]))]
  return withReviewGate(values, io, options.cwd, named, () => loadDistribution(options))
}

/**
 * Runs `load` for a command that reviews or lists a project: in a folder not trusted, and without
 * `--trust-workspace`, it imports no project code (MODLOOP_ERR_UNTRUSTED names the file). Files
 * named on the command line (`named`, as given there) and modloop's own are imported.
 */
export async function withReviewGate<T>(values: Values, io: Io, cwd: string, named: readonly (string | undefined)[], load: () => Promise<T>): Promise<T> {
  if (values['trust-workspace'] === true || (await isTrusted(io, cwd))) return load()
  const { withImportGate } = await import('../runtime/loader/import-gate.js')
  const given = named.filter((s): s is string => s !== undefined).map((s) => realOf(resolve(cwd, s)))
  const own = realOf(PACKAGE_ROOT)
  return withImportGate((file) => {
    const real = realOf(file)
    if (real === own || real.startsWith(own + sep) || given.some((n) => real === n || real.startsWith(n + sep))) return undefined
    return 'this folder is not trusted, so its code is not run to list it (trust it with `modloop trust`, or pass --trust-workspace)'
  }, load)
}

async function isTrusted(io: Io, cwd: string): Promise<boolean> {
  const { trustStorePath, trustedBy } = await import('../mods/permissions/trust-store.js')
  return (await trustedBy(trustStorePath({ home: io.env.HOME || undefined }, io.env), cwd).catch(() => undefined)) !== undefined
}

function realOf(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}
