import { resolve } from 'node:path'
import type { Builtins } from '../runtime/loader/types.js'
import type { PostgresStore } from '../mods/transcripts/store/postgres/pg-store.js'
import type { Values } from './command.js'
import type { Io } from './io.js'

/**
 * The session store a command uses: `--session-store URL`, else the config's `sessionStore: {
 * postgres: URL }` (the given `--config`, or the one found from `cwd`, with what it extends),
 * else none — the local files. Postgres code loads only when one is named.
 */
export async function chooseSessionStore(values: Values, cwd: string, log?: (line: string) => void): Promise<PostgresStore | undefined> {
  const chosen = await sessionStoreSetting(values, cwd)
  return chosen ? openStore(chosen.url, chosen.source, log) : undefined
}

/**
 * The session store a command that lists or moves sessions uses: as chooseSessionStore, but in a
 * folder not trusted a config that is code is not run to learn it (MODLOOP_ERR_UNTRUSTED).
 */
export async function reviewSessionStore(values: Values, io: Io, cwd: string): Promise<PostgresStore | undefined> {
  const { withReviewGate } = await import('./load-args.js')
  return withReviewGate(values, io, cwd, [], () => chooseSessionStore(values, cwd))
}

/** The session store's URL as `--session-store` or the config names it, and where it was named. */
export async function sessionStoreSetting(values: Values, cwd: string): Promise<{ url: string; source: string } | undefined> {
  const flag = values['session-store']
  if (typeof flag === 'string') return { url: flag, source: '--session-store' }
  const configured = await configuredStore(typeof values.config === 'string' ? values.config : undefined, cwd)
  return configured ? { url: configured.url, source: `${configured.file}: sessionStore.postgres` } : undefined
}

/** The built-in set with `store` as its session store (the file store when none). */
export async function builtinsWith(store: PostgresStore | undefined): Promise<Builtins> {
  const { BUILTINS } = await import('../builtins.js')
  return store ? { ...BUILTINS, sessionStore: store } : BUILTINS
}

async function openStore(url: string, source: string, log?: (line: string) => void): Promise<PostgresStore> {
  const { PostgresStore } = await import('../mods/transcripts/store/postgres/pg-store.js')
  return new PostgresStore(url, { source, ...(log ? { log } : {}) })
}

/** The config's sessionStore, merged over its extends chain as the loader merges it (the child wins). */
async function configuredStore(configPath: string | undefined, cwd: string): Promise<{ url: string; file: string } | undefined> {
  const [{ findConfig, loadConfigRef }, { useHostModule }, { BUILTINS }] = await Promise.all([import('../runtime/loader/find-config.js'), import('../runtime/loader/jiti.js'), import('../builtins.js')])
  // A config that is code is imported through the loader's jiti, which gives it modloop's own
  // namespace: this runs before the distribution loads, which would otherwise have set it.
  useHostModule(BUILTINS.hostModule)
  const found = configPath !== undefined ? await loadConfigRef(configPath, resolve(cwd), 'MODLOOP_ERR_CONFIG', '--config') : await findConfig(resolve(cwd))
  if (!found) return undefined
  const { collectLayers } = await import('../runtime/loader/extends.js')
  let url: { url: string; file: string } | undefined
  for (const layer of await collectLayers(found, BUILTINS)) {
    const set = layer.config.sessionStore?.postgres
    if (set !== undefined) url = { url: set, file: layer.file ?? layer.origin.label }
  }
  return url
}
