import { ModloopError } from '../core/errors.js'

/**
 * Skipping every permission check as root is refused, as Claude Code refuses it (spec §3.3: "refused
 * as root on Unix"): a tool call could change anything on the machine. A container or sandbox where
 * root is the only user says so with IS_SANDBOX=1. `--allow-dangerously-skip-permissions` (switching
 * into the mode later) is refused too.
 */
export function refuseBypassAsRoot(bypass: boolean, env: Record<string, string | undefined>, uid = process.getuid?.()): void {
  if (!bypass || uid !== 0 || env.IS_SANDBOX === '1') return
  throw new ModloopError('MODLOOP_ERR_ROOT_BYPASS',
    '--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons (in a container or sandbox, IS_SANDBOX=1 allows it)',
    { field: 'permissionMode', stage: 'usage' })
}

/** Restricted mode refuses the mode outright, as Claude Code does, before the check for root. */
export function refuseBypass(bypass: boolean, restricted: boolean, env: Record<string, string | undefined>): void {
  if (bypass && restricted) throw new ModloopError('MODLOOP_ERR_RESTRICTED_BYPASS', 'bypassPermissions not supported in restricted mode', { field: 'permissionMode', stage: 'usage' })
  refuseBypassAsRoot(bypass, env)
}
