import type { ModApi } from '../../core/mod/api.js'
import '../../mods/permissions/api.js'
import '../../runtime/permission-mode.js'

/** What the ACP front end uses of the permissions mod: saving a rule, and the mode in force. */
export interface PermissionsAccess {
  persistUpdate(update: unknown): Promise<{ file?: string }>
  mode?(): string
}

/**
 * The permissions mod's capabilities as this session's `$` (the acp-client mod's) reaches them,
 * or undefined when no permissions mod is loaded. The one place the front end reads them.
 */
export function permissionsOf($: ModApi | undefined): PermissionsAccess | undefined {
  const api = $?.capability.use('permissions')
  if (!api) return undefined
  const owner = $?.capability.use('permissionMode')
  return { persistUpdate: (update) => api.persistUpdate(update as never), ...(owner ? { mode: () => owner.mode() } : {}) }
}
