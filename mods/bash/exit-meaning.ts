/** Commands whose exit code 1 is an answer, not a failure, and what it means. */
const EXIT_ONE: Record<string, string> = {
  grep: 'No matches found', egrep: 'No matches found', fgrep: 'No matches found', rg: 'No matches found',
  'git grep': 'No matches found', find: 'Some paths could not be read', diff: 'Files differ',
  'git diff': 'Files differ', test: 'Condition is false', '[': 'Condition is false',
}

/** The last simple command of a command line: its exit code is the line's exit code. */
export function lastCommandName(command: string): string {
  let quote: string | undefined
  let start = 0
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!
    if (ch === '\\') i++
    else if (quote) { if (ch === quote) quote = undefined }
    else if (ch === '"' || ch === "'") quote = ch
    else if ('|&;\n'.includes(ch) && command.slice(i + 1).trim() !== '') start = i + 1
  }
  const words = command.slice(start).trim().replace(/^[({]\s*/, '').split(/\s+/).filter((w) => !/^\w+=/.test(w))
  const [first = '', second = ''] = words
  return first === 'git' ? `git ${second}` : first.split('/').at(-1)!
}

/** Why `code` counts as success for this command, when it does (exit 1 of grep, diff, test …). */
export function benignExit(command: string, code: number | null): string | undefined {
  return code === 1 ? EXIT_ONE[lastCommandName(command)] : undefined
}
