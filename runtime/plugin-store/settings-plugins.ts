import { envTrue } from '../../core/env.js'
import type { SettingsFileReader } from '../../hooks-runner/read-settings.js'
import type { LoadOptions } from '../loader/types.js'
import type { QueryOptions } from '../options.js'

/**
 * The plugins enabled in the settings files load unless safe mode is on (it loads no plugin); a
 * project's own settings enable one in a workspace trusted as the permissions mod trusts it (the
 * entry point's `workspaceTrusted`: the runtime imports no mod). `settingSources` (the Agent SDK's;
 * restricted mode's is none) picks the files read, and `reader` (the session's) reads them.
 */
export function settingsPlugins(options: Pick<QueryOptions, 'env' | 'trustWorkspace' | 'settingSources' | 'builtins'>, cwd: string, reader?: SettingsFileReader): LoadOptions['settingsPlugins'] {
  const env = { ...process.env, ...options.env }
  if (envTrue(env.CLAUDE_CODE_SAFE_MODE)) return undefined
  const trusted = async () => options.trustWorkspace === true || (await options.builtins?.workspaceTrusted?.(cwd, env)) === true
  return { env, trusted, ...(options.settingSources ? { sources: options.settingSources } : {}), ...(reader ? { reader } : {}) }
}
