import { homedir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'

/**
 * A path a model gave, made absolute as Claude Code makes it: `~` and `~/…` start at the home
 * folder, a relative path at `cwd`. An absolute path is answered as given, so messages quote it
 * as the model wrote it.
 */
export function absolutePath(given: string, cwd: string): string {
  if (given === '~' || given.startsWith('~/')) return join(homedir(), given.slice(1))
  return isAbsolute(given) || given === '' ? given : resolve(cwd, given)
}

/** A `resolveInput` for a tool whose path is in `field`: the input itself when the path is absolute already. */
export function absolutePathField<K extends string>(field: K) {
  return <I extends { [P in K]: string }>(input: I, cwd: string): I => {
    const path = absolutePath(input[field], cwd)
    return path === input[field] ? input : { ...input, [field]: path }
  }
}
