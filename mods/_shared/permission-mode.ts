import type { ModApi } from '../../core/mod/api.js'

/** The mode the permissions mod decides under (it offers `mode()` through `$.state`); none without it. */
export function permissionModeOf($: ModApi): string | undefined {
  const api = $.state.get({ plugin: 'permissions', key: 'api' }).value as { mode?: () => unknown } | undefined
  const mode = typeof api?.mode === 'function' ? api.mode() : undefined
  return typeof mode === 'string' ? mode : undefined
}
