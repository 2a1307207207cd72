/**
 * Claude Code's list flags take several values in a row (`--allowedTools Read Grep`, `--add-dir
 * ../a ../b`): each word up to the next option is one more value. node:util parseArgs takes one
 * value per flag, so the words after the first would fall to the prompt. This rewrites the
 * arguments so that each word gets its own flag (`--allowedTools Read --allowedTools Grep`), and
 * spells each alias (`--allowed-tools`) as the option it stands for.
 */
export function expandVariadic(args: readonly string[], variadic: readonly string[], aliases: Readonly<Record<string, string>> = {}): string[] {
  const out: string[] = []
  let open: string | undefined
  // After a bare `--flag`, the next word is its first value as parseArgs reads it.
  let bare = false
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === '--') {
      out.push(...args.slice(i))
      break
    }
    if (arg.startsWith('-')) {
      open = undefined
      bare = false
      // A one-letter alias (`-e` for `--env`) is spelled long, so a variadic one collects its words too.
      const m = /^--([^=]+)(=.*)?$/.exec(arg) ?? (/^-[A-Za-z]$/.test(arg) && aliases[arg[1]!] ? [arg, arg[1]!] : null)
      if (!m) {
        out.push(arg)
        continue
      }
      const name = aliases[m[1]!] ?? m[1]!
      out.push(`--${name}${m[2] ?? ''}`)
      if (!variadic.includes(name)) continue
      open = name
      bare = m[2] === undefined
      continue
    }
    out.push(...(open !== undefined && !bare ? [`--${open}`, arg] : [arg]))
    bare = false
  }
  return out
}
