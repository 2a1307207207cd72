import { ModloopError } from '../core/errors.js'
import type { ModHost } from '../core/mod/host.js'
import { PERMISSION_MODES, permissionModeOf, type PermissionMode } from '../core/permission-modes.js'
import type { Session } from '../core/loop/session.js'

/** Query.setPermissionMode: checked here against the SDK's contract, applied by the owner. */
export async function setPermissionMode(session: Session, name: string): Promise<PermissionMode> {
  const mode = permissionModeOf(name)
  if (mode === undefined) {
    throw new ModloopError('MODLOOP_ERR_USAGE', `setPermissionMode: "${name}" is not a permission mode (one of ${PERMISSION_MODES.join(', ')}, or manual: the same as default)`, { field: 'mode' })
  }
  // Starting in bypassPermissions (the CLI's --dangerously-skip-permissions) is that same opt-in.
  const { options, host } = session.root
  if (mode === 'bypassPermissions' && options.allowDangerouslySkipPermissions !== true && options.permissionMode !== 'bypassPermissions') {
    throw new ModloopError('MODLOOP_ERR_USAGE', 'setPermissionMode: "bypassPermissions" needs the session to be started with allowDangerouslySkipPermissions: true', { field: 'mode' })
  }
  const owner = host.capabilities.get('permissionMode')
  if (!owner) throw unowned(host, `setPermissionMode("${mode}")`)
  await owner.setMode(mode as PermissionMode)
  return mode as PermissionMode
}

/** The mode in force, as its owner answers; `default` without one (tools then run unchecked). */
export function permissionModeInForce(session: Session): string {
  return session.root.host.capabilities.get('permissionMode')?.mode() ?? 'default'
}

/**
 * A session asked to start in a mode other than `default` needs a loaded mod that owns the mode:
 * without one the mode would be silently ignored, so the session is refused instead.
 */
export function assertModeOwned(host: ModHost, mode: string | undefined): void {
  if (mode === undefined || mode === 'default' || host.providerOf('permissionMode')) return
  throw unowned(host, `permission mode "${mode}" (--permission-mode, or query()'s permissionMode)`)
}

function unowned(host: ModHost, asked: string): ModloopError {
  const usual = host.usual('capabilities', 'permissionMode')
  return new ModloopError('MODLOOP_ERR_CAPABILITY_MISSING',
    `${asked} was asked for, but no loaded mod owns permission modes (the "permissionMode" capability${usual ? `, which the ${usual} mod provides normally` : ''}). Load a mod that provides it, or leave the mode at default, where tools run unchecked.`,
    { field: 'permissionMode', stage: 'session' })
}
