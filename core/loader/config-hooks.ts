import type { ModHost } from '../mod/host.js'
import type { HookSource } from './types.js'

declare module '../mod/capabilities.js' {
  interface Capabilities {
    /** The settings hooks of the config (every layer) and of plugin directories, for the mod that runs them. */
    configHooks: readonly HookSource[]
  }
}

/** The loader's own capability: it is no mod, so it publishes under its own name. */
export function provideConfigHooks(host: ModHost, hooks: readonly HookSource[]): void {
  host.capabilities.set('loader', 'configHooks', hooks)
}
