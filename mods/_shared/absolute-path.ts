import { homedir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'
import type { ModApi } from '../../core/mod/api.js'
import type { InputPlace } from '../../core/tools/tool.js'
import './shell-cwd.js'

/**
 * A path a model gave, made absolute as Claude Code makes it: spaces around it dropped (a slip,
 * never part of a name the model meant), `~` and `~/…` started at the home folder, a relative path
 * at `from`. An absolute path is otherwise answered as given, so messages quote it as written.
 */
export function absolutePath(given: string, from: string): string {
  const path = given.trim()
  if (path === '~' || path.startsWith('~/')) return join(homedir(), path.slice(1))
  return isAbsolute(path) || path === '' ? path : resolve(from, path)
}

/**
 * A `resolveInput` for a tool whose path is in `field`. A relative path starts where the main
 * conversation's shell is after `cd`, as Claude Code's does, else at the session's directory.
 */
export function absolutePathField<K extends string>(field: K, $: ModApi) {
  return <I extends { [P in K]: string }>(input: I, at: InputPlace): I => {
    const from = (at.agentId === undefined ? $.capability.use('shellCwd')?.(at.sessionId) : undefined) ?? at.cwd
    const path = absolutePath(input[field], from)
    return path === input[field] ? input : { ...input, [field]: path }
  }
}
