import { isModloopError, ModloopError } from '../core/errors.js'
import type { Model } from '../core/model/types.js'
import type { QueryOptions } from './options.js'
import type { KeyHelperSetting } from './model/key-helper.js'
import type { DebugLog } from './debug-log.js'

/** The model client a session talks to: the one given, the scripted model for a script, else the Anthropic API. */
/**
 * `keyHelperSetting`: the settings' `apiKeyHelper`, asked for at the first request — by then the
 * mod that reads the settings (settings-env) has read it with the rest of them. `sessionEnv`: the
 * session's environment, its settings `env` applied, read at each request.
 */
export async function pickModel(options: QueryOptions, cwd: string, keyHelperSetting: () => KeyHelperSetting | undefined, sessionEnv?: () => Record<string, string | undefined> | undefined, debugLog?: DebugLog): Promise<Model> {
  if (options.modelProvider) return options.modelProvider
  const env = options.env ?? process.env
  const script = options.script ?? env.MODLOOP_SCRIPT
  if (script !== undefined) {
    if (!options.builtins?.scriptedModel) throw new ModloopError('MODLOOP_ERR_SCRIPT', 'a model script was given, but this host has no scripted model (import query from the modloop package)')
    return options.builtins.scriptedModel(script, cwd)
  }
  const keyHelper = async () => {
    const setting = keyHelperSetting()
    return setting && new (await import('./model/key-helper.js')).KeyHelper(setting, { cwd, env })
  }
  const { createAnthropicModel } = await import('./model/anthropic.js')
  // The key and the endpoint are read from the session's environment at the first request, so settings `env` can set them.
  return createAnthropicModel({ env, keyHelper, requestEnv: sessionEnv, ...(debugLog ? { debug: (level, text) => debugLog.write('api', level, text) } : {}) })
}

/**
 * A model script that cannot be read or does not parse is bad input, not a crash: the session
 * opens, and each turn ends `turn_setup_failed` with the error naming the file and field.
 */
export function unusableScript(err: unknown): { model: Model; setupError: Error } {
  if (!isModloopError(err, 'MODLOOP_ERR_SCRIPT')) throw err
  return {
    model: { name: 'scripted', stream: () => { throw err } },
    setupError: err,
  }
}

