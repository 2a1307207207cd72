import { parse, type ParseEntry } from 'shell-quote'

export interface ShellCommands {
  /** Each simple command, words joined by one space, leading `VAR=value` and keywords removed. */
  commands: string[]
  /** The line holds `$(…)`, backticks or a `$VAR` reference: its real words are known only at run time. */
  dynamic: boolean
  /** False when the line could not be parsed; callers fail open. */
  parsed: boolean
}

const SEPARATORS = new Set(['&&', '||', ';', ';;', '|', '|&', '&', '(', ')', '<(', '>('])
const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '!', '{', '}', 'time'])
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/
const DYNAMIC = /\$\(|`|\$[A-Za-z_{0-9@*#?!$-]/

/**
 * Splits a shell line into its simple commands, for the `if` filter (spec §1.5): every part of
 * `&&`, `||`, `;`, `|` and `&` lists, and the commands inside `$(…)` and backticks, each stripped
 * of leading variable assignments. Quoting is resolved by shell-quote; redirections are dropped.
 */
export function splitShellCommands(line: string): ShellCommands {
  const dynamic = DYNAMIC.test(line)
  const commands: string[] = []
  try {
    // Backtick substitutions are commands of their own; the word they stand in is unknown.
    const outer = line.replace(/`([^`]*)`/g, (_, inner: string) => {
      commands.push(...splitShellCommands(inner).commands)
      return ' __substitution__ '
    })
    collect(parse(outer, (name) => ({ __var: name }) as unknown as string), commands)
    return { commands, dynamic, parsed: true }
  } catch {
    return { commands, dynamic, parsed: false }
  }
}

function collect(tokens: ParseEntry[], commands: string[]): void {
  let words: string[] = []
  const flush = () => {
    let i = 0
    while (i < words.length && (ASSIGNMENT.test(words[i]!) || KEYWORDS.has(words[i]!))) i++
    if (i < words.length) commands.push(words.slice(i).join(' '))
    words = []
  }
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t]!
    if (typeof token === 'string') {
      words.push(token)
    } else if ('__var' in token) {
      // `$(` reaches us as an empty variable followed by `(`; the `(` starts the inner command.
      const name = (token as { __var: string }).__var
      if (name) words.push(`$${name}`)
    } else if ('comment' in token) {
      break
    } else if ('op' in token) {
      if (token.op === 'glob') words.push(token.pattern)
      else if (SEPARATORS.has(token.op)) flush()
      else {
        // A redirection: drop its target, and the fd number glued before it (`2>&1`).
        if (/^\d+$/.test(words.at(-1) ?? '')) words.pop()
        t++
      }
    }
  }
  flush()
}
