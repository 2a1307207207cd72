import type { ModHost } from '../../core/mod/host.js'
import type { HookSource, LoadedPlugin } from './types.js'

declare module '../../core/mod/capabilities.js' {
  interface Capabilities {
    /** The settings hooks of the config (every layer) and of plugin directories, for the mod that runs them. */
    configHooks: readonly HookSource[]
    /** The plugin directories the loader loaded, for the mods that own their parts (commands, skills, agents, MCP servers). */
    loadedPlugins: readonly LoadedPlugin[]
  }
}

/** The loader's own capabilities: it is no mod, so it publishes under its own name. */
export function provideLoaded(host: ModHost, hooks: readonly HookSource[], plugins: readonly LoadedPlugin[]): void {
  host.capabilities.set('loader', 'configHooks', hooks)
  host.capabilities.set('loader', 'loadedPlugins', plugins)
}
