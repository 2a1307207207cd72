import { readFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
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
const flagShape = z.looseObject({ permissions: permissionsShape.optional(), trustWorkspace: z.boolean().optional() })

export interface LoadInput {
  cwd: string
  options: PermissionsOptions
  /** What `$.settings.read({source: 'flag'})` answered: the launch flags as a settings layer. */
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
 * config), project settings, local settings, the launch flags. Rule lists add up across them;
 * for defaultMode the last source that sets one wins. A file that cannot be read is skipped
 * with a warning naming it; so is each bad entry.
 */
export async function readLayers(input: LoadInput): Promise<{ layers: Layer[]; trustFlag: boolean; warnings: string[] }> {
  const { cwd, options, env } = input
  const warnings: string[] = []
  const home = homeOf(options)
  const userFile = join(claudeDir(options, env), 'settings.json')
  const projectFile = join(cwd, '.claude', 'settings.json')
  const layers: Layer[] = []
  const fromFile = async (file: string, name: RuleSource['name'], root: string, projectLevel: boolean) => {
    const settings = await readSettingsFile(file, warnings)
    if (settings) layers.push(toLayer({ name, label: file, root, projectLevel }, settings.permissions ?? {}, warnings))
  }
  await fromFile(userFile, 'userSettings', home, false)
  layers.push(toLayer({ name: 'modloopConfig', label: 'the modloop config', root: cwd, projectLevel: true }, options, warnings))
  // Started in the home folder, the project file is the user file: read it once.
  if (projectFile !== userFile) await fromFile(projectFile, 'projectSettings', cwd, true)
  await fromFile(join(cwd, '.claude', 'settings.local.json'), 'localSettings', cwd, true)
  const flags = flagShape.safeParse(input.flags ?? {})
  if (!flags.success) warnings.push(`the launch flags' permission settings could not be read: ${flags.error.issues[0]?.message}`)
  else layers.push(toLayer({ name: 'cliArg', label: 'the command line', root: cwd, projectLevel: false }, flags.data.permissions ?? {}, warnings))
  return { layers, trustFlag: flags.success && flags.data.trustWorkspace === true, warnings }
}

async function readSettingsFile(file: string, warnings: string[]): Promise<z.output<typeof settingsShape> | undefined> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') warnings.push(`${file}: cannot be read (${(err as Error).message}); its permissions are skipped`)
    return undefined
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    warnings.push(`${file}: not valid JSON (${(err as Error).message}); its permissions are skipped`)
    return undefined
  }
  const parsed = settingsShape.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    warnings.push(`${file}: ${issue?.path.join('.') || '(file)'}: ${issue?.message}; its permissions are skipped`)
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
