import type { LoadedInstruction } from './types.js'

const REASON: Record<LoadedInstruction['load_reason'], string> = {
  session_start: 'at start',
  nested_traversal: 'when a file below it was touched',
  path_glob_match: 'when a file its paths match was touched',
  include: 'imported',
}

/**
 * `/memory`: the memory files the session loaded, in order, each with its kind and why it was
 * loaded, then the project and user files a person edits to change what later sessions read, and
 * the auto memory's folder when it is on.
 * (Claude Code's terminal opens one in an editor; a listing serves every front end.)
 */
export function memoryListing(loads: readonly LoadedInstruction[], edit: { project: string; user: string; auto?: string | undefined }): string {
  const seen = new Set<string>()
  const rows = loads.filter((l) => !seen.has(l.file_path) && seen.add(l.file_path)).map((l) => {
    const why = l.load_reason === 'include' && l.parent_file_path ? `imported by ${l.parent_file_path}` : REASON[l.load_reason]
    return `  ${l.memory_type.padEnd(8)} ${l.file_path} (${why})`
  })
  return [
    ...(rows.length === 0 ? ['No memory files are loaded.'] : [`Memory files loaded (${rows.length}):`, ...rows]),
    `Project memory: ${edit.project}`,
    `User memory:    ${edit.user}`,
    `Auto memory:    ${edit.auto ?? 'off'}`,
  ].join('\n')
}
