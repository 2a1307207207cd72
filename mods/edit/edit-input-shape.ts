import type { CoercedInput } from '../../core/tools/tool.js'

/**
 * Edit's input sent in a text editor tool's shape (`path`, `old_str`, `new_str`), read as Edit's,
 * as Claude Code reads it. An `old_str` or `new_str` beside Edit's own name is dropped.
 */
export function coerceEditInput(given: Record<string, unknown>): CoercedInput | undefined {
  if (!['path', 'old_str', 'new_str'].some((k) => Object.hasOwn(given, k))) return undefined
  const input = { ...given }
  if (!Object.hasOwn(input, 'file_path') && typeof input.path === 'string') {
    input.file_path = input.path
    delete input.path
  }
  for (const [theirs, ours] of [['old_str', 'old_string'], ['new_str', 'new_string']] as const) {
    if (!Object.hasOwn(input, theirs)) continue
    if (!Object.hasOwn(input, ours)) input[ours] = input[theirs]
    delete input[theirs]
  }
  return { input }
}
