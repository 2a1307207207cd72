import { createRequire } from 'node:module'
import type { Jiti } from 'jiti'
import { ModloopError } from '../../core/errors.js'
import { hostPaths } from './host-paths.js'
import { transform } from './transform.js'

let shared: Promise<Jiti> | undefined
let hostModule: (() => Promise<Record<string, unknown>>) | undefined

/**
 * The public namespace mods import as `modloop`, handed over by the entry point that loads a
 * distribution (the runtime never imports the package that contains it). The first one given stands:
 * one process hosts one modloop.
 */
export function useHostModule(load: () => Promise<Record<string, unknown>>): void {
  hostModule ??= load
}

/**
 * The one jiti instance that imports every mod and TS/JS config file, so a module imported by two
 * mods is evaluated once. Created on first use: `modloop --version` never loads jiti or babel.
 */
export function sharedJiti(): Promise<Jiti> {
  shared ??= create()
  return shared
}

/**
 * A jiti instance that caches no module: a hot reload imports a mod's changed file — and the
 * files it imports — afresh. `modloop` and `zod` stay the host's own instances.
 */
export function freshJiti(): Promise<Jiti> {
  return create(false)
}

async function create(moduleCache = true): Promise<Jiti> {
  // jiti through require: its ES module face makes Node scan the 190 KB CommonJS body for export
  // names first (~15 ms).
  const { createJiti } = createRequire(import.meta.url)('jiti') as typeof import('jiti')
  if (!hostModule) throw new ModloopError('MODLOOP_ERR_USAGE', 'modloop: no host module was given to the loader; load distributions through the package entry (query, loadDistribution) or pass `builtins`')
  const [host, zod] = await Promise.all([hostModule(), import('zod')])
  const paths = hostPaths()
  const alias: Record<string, string> = { modloop: paths.entry, zod: paths.zodDir }
  if (paths.testing) alias['modloop/testing'] = paths.testing
  return createJiti(import.meta.url, {
    alias,
    interopDefault: true,
    moduleCache,
    transform,
    ...fsCacheOption(),
    // The aliases alone would make jiti transpile a second copy of the host (and of zod) for mods;
    // handing over the namespaces already loaded keeps one instance, so `instanceof` and the zod
    // registries agree between host and mods, and nothing of ours goes through babel.
    virtualModules: { modloop: host, zod },
    // Subpaths such as 'zod/v4' still come through the alias: import them natively, not transpiled.
    nativeModules: ['zod'],
  })
}

/**
 * MODLOOP_MOD_CACHE: unset → jiti's default transpile cache (tmpdir/jiti); `0`/`false` → no disk
 * cache; anything else → that directory. Benchmarks use it to measure a cold cache.
 */
function fsCacheOption(): { fsCache?: boolean | string } {
  const value = process.env.MODLOOP_MOD_CACHE
  if (value === undefined || value === '') return { fsCache: true }
  if (value === '0' || value === 'false') return { fsCache: false }
  return { fsCache: value }
}
