import type { ResolvedConfig } from './types.js'

type Options = Record<string, unknown> | undefined
type Owned = Pick<ResolvedConfig, 'permissions' | 'mcpServers' | 'compaction'>

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

/**
 * Top-level config keys that configure one built-in mod, by that mod's name: `permissions` becomes
 * the permissions mod's rule options, `mcpServers` the mcp mod's `servers`, `compaction` the
 * compaction mod's options. What a `mods` entry sets for the mod itself is kept: rule and
 * directory lists add up, a scalar or a server of the same name from the entry wins.
 */
const OWNERS: Readonly<Record<string, (options: Options, config: Owned) => Options>> = {
  permissions: (options, { permissions }) => {
    if (!permissions) return options
    const own = options ?? {}
    const joined = (key: 'allow' | 'ask' | 'deny' | 'additionalDirectories') => [...(permissions[key] ?? []), ...list(own[key])]
    return {
      ...own,
      allow: joined('allow'), ask: joined('ask'), deny: joined('deny'), additionalDirectories: joined('additionalDirectories'),
      ...(own.defaultMode === undefined && permissions.defaultMode !== undefined ? { defaultMode: permissions.defaultMode } : {}),
    }
  },
  mcp: (options, { mcpServers }) => {
    if (!mcpServers) return options
    const own = options ?? {}
    const servers = typeof own.servers === 'object' && own.servers !== null ? own.servers : {}
    return { ...own, servers: { ...mcpServers, ...servers } }
  },
  compaction: (options, { compaction }) => (compaction ? { ...compaction, ...options } : options),
}

/** The options a built-in mod loads with, once the config keys it owns are folded in. */
export function withOwnedSettings(builtin: string, options: Options, config: Owned): Options {
  const fold = Object.hasOwn(OWNERS, builtin) ? OWNERS[builtin] : undefined
  return fold ? fold(options, config) : options
}
