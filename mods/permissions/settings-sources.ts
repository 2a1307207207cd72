import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { z } from 'zod'
import { defaultManagedDir, directSettingsReader, INLINE_SETTINGS, readSettingsArg, type SettingsFileReader, type SettingsJson } from '../../hooks-runner/read-settings.js'
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
  /**
   * Reads the files: the session's `settingsFiles` capability, which reads each once for every mod
   * at a start (default: from disk).
   */
  reader?: SettingsFileReader
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
  const userFile = join(claudeDir(places, env), 'settings.json')
  const projectFile = join(cwd, '.claude', 'settings.json')
  const parsed = flagShape.safeParse(input.flags ?? {})
  const flags = parsed.success ? parsed.data : undefined
  if (!parsed.success) warnings.push(`the launch flags' settings could not be read: ${parsed.error.issues[0]?.message}`)
  // The Agent SDK's settingSources picks which of the three settings files are read (all when absent).
  const reads = new Set(flags?.settingSources ?? ['user', 'project', 'local'])
  const reader = input.reader ?? directSettingsReader
  const file = (path: string, name: RuleSource['name'], root: string, projectLevel: boolean) =>
    reader.read(path).then((read) => ({ source: { name, label: path, root, projectLevel }, read }))
  const managedDir = places.managedDir === undefined ? defaultManagedDir() : places.managedDir
  // Every file is read at once (each read a trip to the thread pool), then taken in precedence order.
  const [user, project, local, flagged, managed] = await Promise.all([
    // A `/path` rule of a settings file outside a project is relative to that file's folder, as in Claude Code.
    reads.has('user') ? file(userFile, 'userSettings', dirname(userFile), false) : undefined,
    // Started in the home folder, the project file is the user file: read it once.
    projectFile !== userFile && reads.has('project') ? file(projectFile, 'projectSettings', cwd, true) : undefined,
    reads.has('local') ? file(join(cwd, '.claude', 'settings.local.json'), 'localSettings', cwd, true) : undefined,
    Promise.all((flags?.settings ?? []).map(async (arg) => {
      const { file: path, read } = await readSettingsArg(arg, cwd, reader)
      return { source: { name: 'flagSettings' as const, label: path, root: path === INLINE_SETTINGS ? cwd : dirname(path), projectLevel: false }, read }
    })),
    managedDir === false ? [] : reader.managedFiles(managedDir).then((files) => Promise.all(files.map((f) => file(f, 'policySettings', cwd, false)))),
  ])
  const sources: SettingsSource[] = []
  const take = (got: { source: RuleSource; read: SettingsJson } | undefined) => {
    if (got?.read.status === 'error') warnings.push(got.read.error.message)
    else if (got?.read.status === 'ok') sources.push({ source: got.source, settings: got.read.json })
  }
  take(user)
  if (input.config) sources.push({ source: { name: 'modloopConfig', label: 'the modloop config', root: cwd, projectLevel: true }, settings: input.config })
  take(project)
  take(local)
  for (const got of [...flagged, ...managed]) take(got)
  return { sources, flags, trustFlag: flags?.trustWorkspace === true, warnings }
}
