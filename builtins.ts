import { resolve } from 'node:path'
import type { Builtins } from './runtime/loader/types.js'
import { builtinMods, defaultDistribution } from './mods/index.js'
import { fileStore } from './mods/transcripts/store/file-store.js'
import { readPluginDir } from './mods/_shared/plugin-format/read-plugin.js'

/**
 * What the entry points hand core: the built-in mods, the default distribution, the public
 * namespace mods import as `modloop`, the session store, and the scripted model behind `--script`. Core imports
 * none of these itself; the package's `query()`, the CLI and the test kit pass this along.
 */
export const BUILTINS: Builtins = {
  mods: builtinMods,
  defaultDistribution,
  hostModule: () => import('./index.js') as Promise<Record<string, unknown>>,
  sessionStore: fileStore,
  readPlugin: readPluginDir,
  workspaceTrusted: async (cwd, env) => (await import('./mods/permissions/trust-store.js')).workspaceTrusted(cwd, false, { home: env.HOME || undefined }, { ...env }, []),
  scriptedModel: async (script, cwd) => {
    const [{ loadScript }, { createScriptedModel }] = await Promise.all([import('./testing/model/script.js'), import('./testing/model/scripted.js')])
    return createScriptedModel(await loadScript(typeof script === 'string' ? resolve(cwd, script) : script))
  },
}
