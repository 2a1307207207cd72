import { readOnlyPaths } from './bash-commands.js'
import { splitCommand } from './bash-split.js'
import { stripForRules, takesInputWords } from './bash-strip.js'

/**
 * Whether a command line only reads, wherever its paths point, so that it may run beside other
 * read-only calls, as Claude Code runs it (checked against its CLI: `ls`, `git log`, `cat f | head`,
 * `ls 2>/dev/null` run side by side; `ls > out`, `echo $(cat f)`, `FOO=1 ls`, an unknown command,
 * `ls &`, `(ls)`, `{ ls; }` one at a time). A `cd` moves the session's shell for the calls after it, so a line with
 * one runs alone, though Claude Code runs it beside the others.
 */
export function readOnlyLine(command: string): boolean {
  // A substitution's commands are parts of their own, but Claude Code runs no line with one beside others.
  if (/\$\(|`|[<>]\(/.test(command)) return false
  const split = splitCommand(command)
  if (!split.balanced || split.background || split.grouped) return false
  return split.parts.every((part) => {
    const argv = stripForRules(part.argv, 'allow')
    if (argv.length === 0 && part.redirects.length === 0) return true
    if (argv[0] === 'cd' || takesInputWords(part.argv)) return false
    return readOnlyPaths(argv, part) !== null
  })
}
