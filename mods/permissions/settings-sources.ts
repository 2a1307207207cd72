import { homedir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { defaultManagedDir, managedSettingsFiles, readSettingsArg, readSettingsJson, type SettingsJson } from '../../hooks-runner/read-settings.js'
import type { RuleSource } from './types.js'

// The launch options as `query()` and the CLI name them (--allowedTools, --permission-mode, --add-dir, …).
export const flagShape = z.looseObject({
  allowedTools: z.array(z.unknown()).optional(), disallowedTools: z.array(z.unknown()).optional(), permissionMode: z.unknown().optional(),
  additionalDirectories: z.array(z.unknown()).optional(), trustWorkspace: z.boolean().optional(), settings: z.array(z.string()).optional(),
  settingSources: z.array(z.enum(['user', 'project', 'local'])).optional(),
})
export type Flags = z.output<typeof flagShape>

/** Where the user's and the managed settings are: the permissions mod's options of those names. */
export interface SettingsPlaces {
  /** The user's home: `~/.claude/settings.json` (default: CLAUDE_CONFIG_DIR, else the OS home). */
  home?: string
  /** The managed-policy directory; `false` reads none (default: the platform's). */
  managedDir?: string | false
}

export interface SourcesInput {
  cwd: string
  places: SettingsPlaces
  /** What `$.settings.read({source: 'flag'})` answered: the launch options, as query() names them. */
  flags: unknown
  env: Record<string, string | undefined>
  /** The modloop config's own settings, read between the user's and the project's (the permissions mod's options). */
  config?: Record<string, unknown>
}

/** One source's settings object, as written, with where it came from. */
export interface SettingsSource {
  source: RuleSource
  settings: Record<string, unknown>
}

/** The user's `.claude` folder: under the `home` option, else CLAUDE_CONFIG_DIR, else the OS home. */
export function claudeDir(places: SettingsPlaces, env: Record<string, string | undefined>): string {
  if (places.home) return join(places.home, '.claude')
  return env.CLAUDE_CONFIG_DIR || join(homedir(), '.claude')
}

export const homeOf = (places: SettingsPlaces) => places.home ?? homedir()

/**
 * Reads every settings source, lowest precedence first: user settings, the modloop config,
 * project settings, local settings, each `--settings` file or inline JSON, the launch flags (as
 * `flags`, not a source), then managed policy. The permission rules and the `env` blocks are both
 * read from this one list. A file that cannot be read is left out with a warning naming it.
 * `projectLevel` marks what a cloned repository can bring: it widens nothing in an untrusted workspace.
 */
export async function readSettingsSources(input: SourcesInput): Promise<{ sources: SettingsSource[]; flags?: Flags; trustFlag: boolean; warnings: string[] }> {
  const { cwd, places, env } = input
  const warnings: string[] = []
  const sources: SettingsSource[] = []
  const take = (source: RuleSource, read: SettingsJson) => {
    if (read.status === 'error') warnings.push(read.error.message)
    else if (read.status === 'ok') sources.push({ source, settings: read.json })
  }
  const fromFile = async (file: string, name: RuleSource['name'], root: string, projectLevel: boolean) =>
    take({ name, label: file, root, projectLevel }, await readSettingsJson(file))
  const userFile = join(claudeDir(places, env), 'settings.json')
  const projectFile = join(cwd, '.claude', 'settings.json')
  const parsed = flagShape.safeParse(input.flags ?? {})
  const flags = parsed.success ? parsed.data : undefined
  if (!parsed.success) warnings.push(`the launch flags' settings could not be read: ${parsed.error.issues[0]?.message}`)
  // The Agent SDK's settingSources picks which of the three settings files are read (all when absent).
  const reads = new Set(flags?.settingSources ?? ['user', 'project', 'local'])
  if (reads.has('user')) await fromFile(userFile, 'userSettings', homeOf(places), false)
  if (input.config) sources.push({ source: { name: 'modloopConfig', label: 'the modloop config', root: cwd, projectLevel: true }, settings: input.config })
  // Started in the home folder, the project file is the user file: read it once.
  if (projectFile !== userFile && reads.has('project')) await fromFile(projectFile, 'projectSettings', cwd, true)
  if (reads.has('local')) await fromFile(join(cwd, '.claude', 'settings.local.json'), 'localSettings', cwd, true)
  for (const arg of flags?.settings ?? []) {
    const { file, read } = await readSettingsArg(arg, cwd)
    take({ name: 'flagSettings', label: file, root: cwd, projectLevel: false }, read)
  }
  const managedDir = places.managedDir === undefined ? defaultManagedDir() : places.managedDir
  if (managedDir !== false) {
    for (const file of await managedSettingsFiles(managedDir)) await fromFile(file, 'policySettings', cwd, false)
  }
  return { sources, flags, trustFlag: flags?.trustWorkspace === true, warnings }
}
