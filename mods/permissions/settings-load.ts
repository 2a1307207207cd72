import { homedir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { defaultManagedDir, managedSettingsFiles, readSettingsArg, readSettingsJson, type SettingsJson } from '../../hooks-runner/read-settings.js'
import { MODES, type Mode, type RuleSource } from './types.js'

/**
 * The mod's options: a distribution's own rules (the loader folds the config's top-level
 * `permissions` in here), plus where home and the trust store are.
 */
export const permissionsOptions = z.object({
  allow: z.array(z.string()).default([]),
  ask: z.array(z.string()).default([]),
  deny: z.array(z.string()).default([]),
  defaultMode: z.enum(MODES).optional(),
  /** Absolute, or relative to the session cwd. */
  additionalDirectories: z.array(z.string().min(1)).default([]),
  /** The user's home: `~/.claude/settings.json` and `~/` in rules (default: the OS home). */
  home: z.string().optional(),
  /** The trust file (default: $MODLOOP_HOME/trusted.json, MODLOOP_HOME defaulting to ~/.modloop). */
  trustStore: z.string().optional(),
  /** The managed-policy directory, as the shell-hooks mod reads it; `false` reads none (default: the platform's). */
  managedDir: z.union([z.string(), z.literal(false)]).optional(),
})
export type PermissionsOptions = z.output<typeof permissionsOptions>

/** One source's permission settings, entries still as written. */
export interface Layer {
  source: RuleSource
  allow: string[]
  ask: string[]
  deny: string[]
  defaultMode?: Mode
  additionalDirectories: string[]
}

const entries = z.array(z.unknown()).optional()
const permissionsShape = z.looseObject({ allow: entries, ask: entries, deny: entries, defaultMode: z.unknown().optional(), additionalDirectories: entries })
const settingsShape = z.looseObject({ permissions: permissionsShape.optional() })
// The launch options as `query()` and the CLI name them (--allowedTools, --permission-mode, --add-dir, …).
const flagShape = z.looseObject({
  allowedTools: entries, disallowedTools: entries, permissionMode: z.unknown().optional(), additionalDirectories: entries,
  trustWorkspace: z.boolean().optional(), settings: z.array(z.string()).optional(),
  settingSources: z.array(z.enum(['user', 'project', 'local'])).optional(),
})

/** The launch options as a settings layer's `permissions`: this mod's reading of them, not core's. */
function flagPermissions(f: z.output<typeof flagShape>): z.output<typeof permissionsShape> {
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
}

/** The user's `.claude` folder: under the `home` option, else CLAUDE_CONFIG_DIR, else the OS home. */
export function claudeDir(options: PermissionsOptions, env: Record<string, string | undefined>): string {
  if (options.home) return join(options.home, '.claude')
  return env.CLAUDE_CONFIG_DIR || join(homedir(), '.claude')
}

export const homeOf = (options: PermissionsOptions) => options.home ?? homedir()

/**
 * Reads every source, lowest precedence first: user settings, the mod's options (the modloop
 * config), project settings, local settings, each `--settings` file or inline JSON, the launch
 * flags, then managed policy. Rule lists add up across them; for defaultMode the last source that
 * sets one wins. Only the project-level ones need a trusted workspace to widen access. A file
 * that cannot be read is skipped with a warning naming it; so is each bad entry.
 */
export async function readLayers(input: LoadInput): Promise<{ layers: Layer[]; trustFlag: boolean; warnings: string[] }> {
  const { cwd, options, env } = input
  const warnings: string[] = []
  const home = homeOf(options)
  const userFile = join(claudeDir(options, env), 'settings.json')
  const projectFile = join(cwd, '.claude', 'settings.json')
  const layers: Layer[] = []
  const take = (source: RuleSource, read: SettingsJson) => {
    const settings = settingsOf(source.label, read, warnings)
    if (settings) layers.push(toLayer(source, settings.permissions ?? {}, warnings))
  }
  const fromFile = async (file: string, name: RuleSource['name'], root: string, projectLevel: boolean) =>
    take({ name, label: file, root, projectLevel }, await readSettingsJson(file))
  const flags = flagShape.safeParse(input.flags ?? {})
  // The Agent SDK's settingSources picks which of the three settings files are read (all when absent).
  const reads = new Set(flags.success ? flags.data.settingSources ?? ['user', 'project', 'local'] : ['user', 'project', 'local'])
  if (reads.has('user')) await fromFile(userFile, 'userSettings', home, false)
  layers.push(toLayer({ name: 'modloopConfig', label: 'the modloop config', root: cwd, projectLevel: true }, options, warnings))
  // Started in the home folder, the project file is the user file: read it once.
  if (projectFile !== userFile && reads.has('project')) await fromFile(projectFile, 'projectSettings', cwd, true)
  if (reads.has('local')) await fromFile(join(cwd, '.claude', 'settings.local.json'), 'localSettings', cwd, true)
  if (!flags.success) warnings.push(`the launch flags' permission settings could not be read: ${flags.error.issues[0]?.message}`)
  else {
    for (const arg of flags.data.settings ?? []) {
      const { file, read } = await readSettingsArg(arg, cwd)
      take({ name: 'flagSettings', label: file, root: cwd, projectLevel: false }, read)
    }
    layers.push(toLayer({ name: 'cliArg', label: 'the command line', root: cwd, projectLevel: false }, flagPermissions(flags.data), warnings))
  }
  const managedDir = options.managedDir === undefined ? defaultManagedDir() : options.managedDir
  if (managedDir !== false) {
    for (const file of await managedSettingsFiles(managedDir)) await fromFile(file, 'policySettings', cwd, false)
  }
  return { layers, trustFlag: flags.success && flags.data.trustWorkspace === true, warnings }
}

/** The permission keys of one settings source; a source that cannot be read becomes a warning naming it. */
function settingsOf(label: string, read: SettingsJson, warnings: string[]): z.output<typeof settingsShape> | undefined {
  if (read.status === 'absent') return undefined
  if (read.status === 'error') {
    warnings.push(read.error.message)
    return undefined
  }
  const parsed = settingsShape.safeParse(read.json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    warnings.push(`${label}: ${issue?.path.join('.') || '(file)'}: ${issue?.message}; its permissions are skipped`)
    return undefined
  }
  return parsed.data
}

function toLayer(source: RuleSource, p: z.output<typeof permissionsShape> | PermissionsOptions, warnings: string[]): Layer {
  const list = (key: 'allow' | 'ask' | 'deny' | 'additionalDirectories') => {
    const out: string[] = []
    for (const v of (p[key] as unknown[] | undefined) ?? []) {
      if (typeof v === 'string' && v.trim() !== '') out.push(v)
      else warnings.push(`${source.label}: permissions.${key}: ${JSON.stringify(v)} is not a non-empty string; skipped`)
    }
    return out
  }
  return { source, allow: list('allow'), ask: list('ask'), deny: list('deny'), additionalDirectories: list('additionalDirectories'), defaultMode: modeOf(p.defaultMode, source, warnings) }
}

function modeOf(value: unknown, source: RuleSource, warnings: string[]): Mode | undefined {
  if (value === undefined) return undefined
  if (typeof value === 'string' && (MODES as readonly string[]).includes(value)) return value as Mode
  const note = value === 'auto' ? 'auto (the model classifier) is not available in modloop' : `${JSON.stringify(value)} is not one of ${MODES.join(', ')}`
  warnings.push(`${source.label}: permissions.defaultMode: ${note}; that source's mode is ignored`)
  return undefined
}
