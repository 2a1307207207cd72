import { z } from 'zod'
import type { SettingsFileReader } from '../../hooks-runner/read-settings.js'
import { readSettingsSources, type Flags } from './settings-sources.js'
import { onFirstUse } from '../../core/on-first-use.js'
import { permissionModeOf, permissionModeSchema } from '../../core/permission-modes.js'
import { MODES, type Mode, type RuleSource } from './types.js'
import { builtinOptions } from '../_shared/builtin-options.js'

export { claudeDir, homeOf } from './settings-sources.js'

/**
 * The mod's options: a distribution's own rules (the loader folds the config's top-level
 * `permissions` in here), plus where home and the trust store are.
 */
export const permissionsOptions = builtinOptions('permissions', () => z.object({
  allow: z.array(z.string()).default([]),
  ask: z.array(z.string()).default([]),
  deny: z.array(z.string()).default([]),
  defaultMode: permissionModeSchema.optional(),
  /** Absolute, or relative to the session cwd. */
  additionalDirectories: z.array(z.string().min(1)).default([]),
  /** The user's home: `~/.claude/settings.json` and `~/` in rules (default: the OS home). */
  home: z.string().optional(),
  /** The trust file (default: $MODLOOP_HOME/trusted.json, MODLOOP_HOME defaulting to ~/.modloop). */
  trustStore: z.string().optional(),
  /** The managed-policy directory, as the shell-hooks mod reads it; `false` reads none (default: the platform's). */
  managedDir: z.union([z.string(), z.literal(false)]).optional(),
  /** `"disable"`: bypassPermissions cannot be entered, as in Claude Code's settings. */
  disableBypassPermissionsMode: z.literal('disable').optional(),
  /** Offer ExitPlanMode (and EnterPlanMode where a plan can be approved); Claude Code's minimal mode offers neither. */
  planTools: z.boolean().default(true),
  /**
   * Keep the file tools inside the working directories (the cwd and the extra ones): a call
   * outside is denied whatever a rule or the mode says, as in Claude Code's restricted mode.
   */
  confineFileTools: z.boolean().default(false),
}))
export type PermissionsOptions = z.output<typeof permissionsOptions>

/** One source's permission settings, entries still as written. */
export interface Layer {
  source: RuleSource
  allow: string[]
  ask: string[]
  deny: string[]
  defaultMode?: Mode
  additionalDirectories: string[]
  /** `permissions.disableBypassPermissionsMode: "disable"`: bypassPermissions may not be entered. */
  disablesBypass: boolean
}

// Built on first use: only a run with a settings file reads its permissions.
const permissionsShape = onFirstUse(() => {
  const entries = z.array(z.unknown()).optional()
  return z.looseObject({
    allow: entries, ask: entries, deny: entries, defaultMode: z.unknown().optional(), additionalDirectories: entries, disableBypassPermissionsMode: z.unknown().optional(),
  })
})
const settingsShape = onFirstUse(() => z.looseObject({ permissions: permissionsShape().optional() }))
type SettingsPermissions = z.output<ReturnType<typeof permissionsShape>>

/** The launch options as a settings layer's `permissions`: this mod's reading of them, not core's. */
function flagPermissions(f: Flags): SettingsPermissions {
  return {
    ...(f.allowedTools?.length ? { allow: f.allowedTools } : {}),
    ...(f.disallowedTools?.length ? { deny: f.disallowedTools } : {}),
    ...(f.permissionMode !== undefined ? { defaultMode: f.permissionMode } : {}),
    ...(f.additionalDirectories?.length ? { additionalDirectories: f.additionalDirectories } : {}),
  }
}

export interface LoadInput {
  cwd: string
  options: PermissionsOptions
  /** What `$.settings.read({source: 'flag'})` answered: the launch options, as query() names them. */
  flags: unknown
  env: Record<string, string | undefined>
  /** Reads the settings files (the session's `settingsFiles`; default: from disk). */
  reader?: SettingsFileReader
}

/**
 * The permission layers of every settings source (settings-sources.ts), lowest precedence first,
 * with the mod's options (the modloop config) after the user's settings and the launch flags
 * before managed policy. Rule lists add up across them; the launch's mode wins, else the last
 * source that sets a defaultMode. Only the project-level ones need a trusted workspace to widen access. A source
 * whose permissions cannot be read is skipped with a warning naming it; so is each bad entry.
 */
export async function readLayers(input: LoadInput): Promise<{ layers: Layer[]; trustFlag: boolean; warnings: string[] }> {
  const { cwd, options } = input
  const read = await readSettingsSources({ cwd, places: options, flags: input.flags, env: input.env, config: { permissions: options }, reader: input.reader })
  const warnings = read.warnings
  const layers: Layer[] = []
  for (const { source, settings } of read.sources) {
    if (source.name === 'policySettings' && read.flags) layers.push(flagLayer(cwd, read.flags, warnings))
    const parsed = source.name === 'modloopConfig' ? options : permissionsOf(source.label, settings, warnings)
    if (parsed) layers.push(toLayer(source, parsed, warnings))
  }
  if (read.flags && !layers.some((l) => l.source.name === 'cliArg')) layers.push(flagLayer(cwd, read.flags, warnings))
  const managedOnly = read.sources.some((s) => s.source.name === 'policySettings' && s.settings.allowManagedPermissionRulesOnly === true)
  return { layers: managedOnly ? layers.map(policyRulesOnly) : layers, trustFlag: read.trustFlag, warnings }
}

/**
 * Managed policy's `allowManagedPermissionRulesOnly`: the allow, ask and deny rules of every other
 * source (settings files, the modloop config, --allowedTools and --disallowedTools) are dropped,
 * as in Claude Code; their directories and modes stay.
 */
const policyRulesOnly = (layer: Layer): Layer => (layer.source.name === 'policySettings' ? layer : { ...layer, allow: [], ask: [], deny: [] })

const flagLayer = (cwd: string, flags: Flags, warnings: string[]) =>
  toLayer({ name: 'cliArg', label: 'the command line', root: cwd, projectLevel: false }, flagPermissions(flags), warnings)

/** The permissions of one settings source; a malformed one becomes a warning naming it. */
function permissionsOf(label: string, settings: Record<string, unknown>, warnings: string[]): SettingsPermissions | undefined {
  const parsed = settingsShape().safeParse(settings)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    warnings.push(`${label}: ${issue?.path.join('.') || '(file)'}: ${issue?.message}; its permissions are skipped`)
    return undefined
  }
  return parsed.data.permissions ?? {}
}

function toLayer(source: RuleSource, p: SettingsPermissions | PermissionsOptions, warnings: string[]): Layer {
  const list = (key: 'allow' | 'ask' | 'deny' | 'additionalDirectories') => {
    const out: string[] = []
    for (const v of (p[key] as unknown[] | undefined) ?? []) {
      if (typeof v === 'string' && v.trim() !== '') out.push(v)
      else warnings.push(`${source.label}: permissions.${key}: ${JSON.stringify(v)} is not a non-empty string; skipped`)
    }
    return out
  }
  return {
    source, allow: list('allow'), ask: list('ask'), deny: list('deny'), additionalDirectories: list('additionalDirectories'),
    defaultMode: modeOf(p.defaultMode, source, warnings), disablesBypass: p.disableBypassPermissionsMode === 'disable',
  }
}

function modeOf(value: unknown, source: RuleSource, warnings: string[]): Mode | undefined {
  if (value === undefined) return undefined
  const mode = permissionModeOf(value)
  if (mode === undefined) warnings.push(`${source.label}: permissions.defaultMode: ${JSON.stringify(value)} is not one of ${MODES.join(', ')}; that source's mode is ignored`)
  return mode
}
