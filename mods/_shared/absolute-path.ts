import { homedir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'
import type { ModApi } from '../../core/mod/api.js'
import type { InputPlace } from '../../core/tools/tool.js'
import './shell-cwd.js'

/**
 * A path a model gave, made absolute as Claude Code makes it: `~` and `~/…` start at the home
 * folder, a relative path at `from`. An absolute path is answered as given, so messages quote it
 * as the model wrote it.
 */
export function absolutePath(given: string, from: string): string {
  if (given === '~' || given.startsWith('~/')) return join(homedir(), given.slice(1))
  return isAbsolute(given) || given === '' ? given : resolve(from, given)
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
