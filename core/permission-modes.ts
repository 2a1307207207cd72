/** The permission modes (spec loop-and-sdk §3.3), for the config schema, the CLI and Query.setPermissionMode. */
export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions', 'auto'] as const
export type PermissionMode = (typeof PERMISSION_MODES)[number]
