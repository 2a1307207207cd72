import { envTrue } from '../../core/env.js'
import { readSettingsSources } from '../permissions/settings-sources.js'

export interface GitInstructionsInput {
  cwd: string
  /** The launch options as `$.settings.read({source: 'flag'})` gives them (`settings`, `settingSources`). */
  flags: unknown
  env: Record<string, string | undefined>
}

/**
 * Whether the session's git snapshot is sent, as Claude Code decides it: CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS
 * when set at all (so `0` brings the snapshot back over a setting), else the settings'
 * `includeGitInstructions`, the last source that sets it winning (default on). Files that cannot be
 * read are left to the permissions mod, which reports them.
 */
export async function gitInstructionsOn(input: GitInstructionsInput): Promise<boolean> {
  const switched = input.env.CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS
  if (switched !== undefined && switched.trim() !== '') return !envTrue(switched)
  const { sources } = await readSettingsSources({ cwd: input.cwd, places: {}, flags: input.flags, env: input.env })
  return sources.findLast((s) => typeof s.settings.includeGitInstructions === 'boolean')?.settings.includeGitInstructions !== false
}
