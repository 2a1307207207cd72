import type { SearchSpec } from './grep-input.js'

/** Adds one line of ripgrep's output to the engine's lines. */
export type Collect = (line: string, out: string[]) => void

/** Content output is asked with a NUL after the path and with line numbers when files must be left out (rgArgs). */
export const siftsContent = (spec: SearchSpec): boolean => spec.denied !== undefined && !spec.rootIsFile && spec.mode === 'content'

/**
 * How ripgrep's lines are taken when deny rules cover some files (`spec.denied`): the lines of those
 * files are dropped, with the "--" they would leave with nothing on one side. A listed file is the
 * whole line, a count follows the path's last colon; a content line's path ends at the NUL, and the
 * separator after its line number tells a match from context, so it is put back as ripgrep prints
 * it without --null (and without the number, when none was asked for).
 */
export function collectFor(spec: SearchSpec): Collect {
  const denied = spec.denied
  // A single file searched was checked against the rules before the search.
  if (!denied || spec.rootIsFile) return (line, out) => void out.push(line)
  if (spec.mode === 'files_with_matches') return (line, out) => void (denied(line) || out.push(line))
  if (spec.mode === 'count') return (line, out) => void (denied(line.slice(0, line.lastIndexOf(':'))) || out.push(line))
  let gap = false
  return (line, out) => {
    if (line === '--') return void (gap = true)
    const nul = line.indexOf('\0')
    const path = line.slice(0, nul)
    if (nul === -1 || denied(path)) return
    if (gap && out.length > 0) out.push('--')
    gap = false
    const rest = line.slice(nul + 1)
    const numbered = /^(\d+)([:-])/.exec(rest)
    if (!numbered) return void out.push(`${path}:${rest}`)
    const [head, , sep] = numbered
    out.push(`${path}${sep}${spec.lineNumbers ? head : ''}${rest.slice(head.length)}`)
  }
}
