import type { ModApi } from '../../core/mod/api.js'

/** What the ACP front end uses of the permissions mod: saving a rule, and the mode in force. */
export interface PermissionsAccess {
  persistUpdate(update: unknown): Promise<{ file?: string }>
  mode?(): string
}

/**
 * The permissions mod's API as this session's `$` reaches it, or undefined when the mod is not
 * loaded. The one place the front end reads it, so a change in how it is exposed changes one line.
 */
export function permissionsOf($: ModApi | undefined): PermissionsAccess | undefined {
  const api = $?.state.get({ plugin: 'permissions', key: 'api' }).value as PermissionsAccess | undefined
  return api && typeof api.persistUpdate === 'function' ? api : undefined
}
