import type { ConfigKeyFold } from '../../core/mod/config-keys.js'

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

/**
 * The config's `permissions` (settings-file shaped) as this mod's rule options. What the mod's own
 * `mods` entry sets is kept: the rule and directory lists add up, its `defaultMode` wins.
 */
export const foldPermissions: ConfigKeyFold = (options, value) => {
  const permissions = value as Record<string, unknown>
  const own = options ?? {}
  const joined = (key: 'allow' | 'ask' | 'deny' | 'additionalDirectories') => [...list(permissions[key]), ...list(own[key])]
  return {
    ...own,
    allow: joined('allow'), ask: joined('ask'), deny: joined('deny'), additionalDirectories: joined('additionalDirectories'),
    ...(own.defaultMode === undefined && permissions.defaultMode !== undefined ? { defaultMode: permissions.defaultMode } : {}),
  }
}
