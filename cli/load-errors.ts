import { relative, isAbsolute } from 'node:path'
import type { ModloopError } from '../core/errors.js'

/** A path as the user reads it: relative to cwd when inside it. */
export function shown(path: string | undefined, cwd: string): string {
  if (!path) return ''
  if (!isAbsolute(path)) return path
  const rel = relative(cwd, path)
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path
}

export function errorJson(err: ModloopError) {
  return { code: err.code, stage: err.stage, mod: err.mod, file: err.file, field: err.field, message: err.message }
}

/** Load errors as lines: `CODE [stage] file: message`. */
export function formatErrors(errors: readonly ModloopError[], cwd: string): string {
  if (errors.length === 0) return ''
  const lines = errors.map((e) => `  ${e.code} [${e.stage ?? '-'}]${e.file ? ` ${shown(e.file, cwd)}` : ''}\n    ${e.message.split('\n')[0]}`)
  return `load errors (${errors.length}):\n${lines.join('\n')}\n`
}
