import { splitCommand } from '../permissions/bash-split.js'

// Flags of head and tail whose value is the next word (`head -n 5 file`).
const VALUED = new Set(['-n', '-c', '--lines', '--bytes'])

/** The one file a `cat`, `head`, `tail` or `sed -n` call prints, or undefined when it is not such a call. */
function printedFile([name, ...args]: readonly string[]): string | undefined {
  let operands: string[]
  if (name === 'cat') {
    operands = args.filter((a) => !a.startsWith('-'))
  } else if (name === 'head' || name === 'tail') {
    operands = args.filter((a, i) => !a.startsWith('-') && !VALUED.has(args[i - 1]!))
  } else if (name === 'sed') {
    // Only a printing sed: -i edits the file, and without -n the output is not the file's lines.
    if (!args.includes('-n') || args.some((a) => a.startsWith('-i') || a.startsWith('--in-place'))) return undefined
    operands = args.filter((a) => !a.startsWith('-')).slice(1)
  } else {
    return undefined
  }
  return operands.length === 1 ? operands[0] : undefined
}

/**
 * The files a Bash command read the way the Read tool would: each `cat`, `head`, `tail` or
 * `sed -n` of a single file in a line of commands joined by `&&` or `;`. Claude Code loads the
 * memory of those files' directories as it does for Read; output piped on, or several files
 * at once, is not reading a file.
 */
export function bashReads(command: string): string[] {
  const split = splitCommand(command)
  if (!split.balanced || /(^|\s)\|&?(\s|$)/.test(split.whole)) return []
  return split.parts.flatMap((part) => {
    const file = printedFile(part.argv)
    return file === undefined ? [] : [file]
  })
}
