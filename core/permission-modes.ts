import { z } from 'zod'

/** The permission modes (spec loop-and-sdk §3.3), for the config schema, the CLI and Query.setPermissionMode. */
export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions', 'auto'] as const
export type PermissionMode = (typeof PERMISSION_MODES)[number]

/** `manual`: the name Claude Code's interface gives `default`, which its flag, settings and setMode take too. */
const ALIASES: Readonly<Record<string, PermissionMode>> = { manual: 'default' }

/** The mode a name gives (a mode, or an alias of one); undefined when it names none. */
export function permissionModeOf(name: unknown): PermissionMode | undefined {
  if (typeof name !== 'string') return undefined
  return (PERMISSION_MODES as readonly string[]).includes(name) ? (name as PermissionMode) : ALIASES[name]
}

/** A mode in a config or settings file: a mode or an alias, read as the mode. */
export const permissionModeSchema = z.enum([...PERMISSION_MODES, ...(Object.keys(ALIASES) as ['manual'])]).transform((m) => permissionModeOf(m)!)
