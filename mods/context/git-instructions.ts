import { envTrue } from '../../core/env.js'
import type { SettingsFileReader } from '../../hooks-runner/read-settings.js'
import { readSettingsSources, type SettingsSource } from '../permissions/settings-sources.js'

export interface GitInstructionsInput {
  cwd: string
  /** The launch options as `$.settings.read({source: 'flag'})` gives them (`settings`, `settingSources`). */
  flags: unknown
  env: Record<string, string | undefined>
  /** Reads the settings files (the session's `settingsFiles`; default: from disk). */
  reader?: SettingsFileReader
}

/** The lines the settings' `attribution` asks to end commit messages and pull request descriptions with. */
export interface Attribution {
  commit?: string
  pr?: string
}

export interface GitInstructions {
  /** Whether the git snapshot and the attribution instruction go out. */
  on: boolean
  attribution?: Attribution
}

/**
 * What the settings say about git, as Claude Code decides it: CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS
 * when set at all (so `0` brings the snapshot back over a setting), else `includeGitInstructions`,
 * the last source that sets it winning (default on); and, when on, the `attribution` lines. Files
 * that cannot be read are left to the permissions mod, which reports them.
 */
export async function gitInstructions(input: GitInstructionsInput): Promise<GitInstructions> {
  const switched = input.env.CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS
  const forced = switched !== undefined && switched.trim() !== '' ? !envTrue(switched) : undefined
  if (forced === false) return { on: false }
  const { sources } = await readSettingsSources({ cwd: input.cwd, places: {}, flags: input.flags, env: input.env, reader: input.reader })
  const on = forced ?? sources.findLast((s) => typeof s.settings.includeGitInstructions === 'boolean')?.settings.includeGitInstructions !== false
  const attribution = on ? attributionOf(sources) : undefined
  return { on, ...(attribution ? { attribution } : {}) }
}

/**
 * The `attribution` object merged over the sources, each of `commit` and `pr` from the last that
 * sets it; an empty string asks for no line. Undefined when no line is asked for: modloop adds no
 * attribution of its own, so `includeCoAuthoredBy` (which only turns Claude Code's default off) changes nothing.
 */
function attributionOf(sources: readonly SettingsSource[]): Attribution | undefined {
  const merged: Attribution = {}
  for (const { settings } of sources) {
    const value = settings.attribution
    if (typeof value !== 'object' || value === null) continue
    for (const key of ['commit', 'pr'] as const) {
      const line = (value as Record<string, unknown>)[key]
      if (typeof line === 'string') merged[key] = line
    }
  }
  const asked = Object.fromEntries(Object.entries(merged).filter(([, line]) => line.trim() !== '')) as Attribution
  return asked.commit || asked.pr ? asked : undefined
}

/** The first user message's note asking for the attribution lines. */
export function attributionNote({ commit, pr }: Attribution): string {
  return [
    'Attribution for the git commits and pull requests you make in this session (instructions from the user, such as a CLAUDE.md, come first; add no attribution line that is not asked for here):',
    ...(commit ? ['- Close each commit message with:', commit] : []),
    ...(pr ? ['- Close each pull request description with:', pr] : []),
  ].join('\n')
}
