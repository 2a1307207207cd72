import type { ModApi } from '../../core/mod/api.js'

/**
 * Where the bash mod publishes the directory a session's shell is in after `cd` (absent until it
 * first moves). Settings hooks run there and report it as `cwd` (spec §2.1, §4.2).
 */
export const shellCwdRef = (sessionId: string) => ({ plugin: 'bash', key: 'cwd', id: sessionId })

export function shellCwd($: ModApi, sessionId: string): string | undefined {
  const value = $.state.get(shellCwdRef(sessionId)).value
  return typeof value === 'string' ? value : undefined
}
