import type { ModApi } from '../../core/mod/api.js'

/**
 * Where the shell-hooks mod publishes a session's `CLAUDE_ENV_FILE` files (spec §4.3): the files
 * SessionStart (and the other env-file events') hooks may append `export` lines to, in settings
 * order. The bash mod sources those that exist before every command of the session.
 */
export const hookEnvFilesRef = (sessionId: string) => ({ plugin: 'shell-hooks', key: 'env-files', id: sessionId })

export function hookEnvFiles($: ModApi, sessionId: string): string[] {
  const value = $.state.get(hookEnvFilesRef(sessionId)).value
  return Array.isArray(value) ? value.filter((f): f is string => typeof f === 'string') : []
}
