import { readSettingsSources } from '../mods/permissions/settings-sources.js'
import { workspaceTrusted } from '../mods/permissions/trust-store.js'
import { settingsList } from './launch-options.js'
import type { KeyHelperSetting } from './model/key-helper.js'
import type { QueryOptions } from './options.js'

/**
 * The `apiKeyHelper` the settings name: the last source that sets one wins (user < project <
 * local < --settings < policy), as in Claude Code. It is read here, before any mod runs, because
 * the model client is made first. A project's counts only in a trusted workspace, as its `env`
 * does: a cloned repository could otherwise run a command of its own at the first request.
 */
export async function apiKeyHelperSetting(options: QueryOptions, cwd: string, env: Record<string, string | undefined>, warn: (line: string) => void): Promise<KeyHelperSetting | undefined> {
  const flags = { settings: settingsList(options.settings), ...(options.settingSources ? { settingSources: options.settingSources } : {}), trustWorkspace: options.trustWorkspace === true }
  const read = await readSettingsSources({ cwd, places: {}, flags, env })
  const named: (KeyHelperSetting & { projectLevel: boolean })[] = []
  for (const { source, settings } of read.sources) {
    const value = settings.apiKeyHelper
    if (value === undefined) continue
    if (typeof value === 'string' && value.trim() !== '') named.push({ command: value, file: source.label, projectLevel: source.projectLevel })
    else warn(`${source.label}: "apiKeyHelper" must be a shell command; ignored`)
  }
  let found = named.at(-1)
  if (found?.projectLevel) {
    const warnings: string[] = []
    if (!(await workspaceTrusted(cwd, read.trustFlag, {}, env, warnings))) {
      for (const w of [...warnings, `this workspace is not trusted, so the apiKeyHelper of ${found.file} is not run. To run it, run \`modloop trust ${cwd}\`, or pass --trust-workspace for one run.`]) warn(w)
      found = named.filter((n) => !n.projectLevel).at(-1)
    }
  }
  return found && { command: found.command, file: found.file }
}
