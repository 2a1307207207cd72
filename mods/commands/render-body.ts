import { parse } from 'shell-quote'

/** The arguments of `/name args` as words, quoted the way a shell reads them ("two words" is one). */
export function splitArgs(args: string): string[] {
  // Variables stay as written: the person typed text for the prompt, not for a shell.
  const words = parse(args, (name: string) => `$${name}`)
  return words.map((w) => (typeof w === 'string' ? w : 'comment' in w ? `#${w.comment}` : w.op === 'glob' ? w.pattern : w.op))
}

// `\$` escapes; `$ARGUMENTS[N]` and its shorthand `$N` are 0-based (`$0` is the first word), as
// Claude Code's skills reference has it; `$name` is a word named by the `arguments` frontmatter;
// `${CLAUDE_…}` are session values. A placeholder ends where a word character would go on.
const PLACEHOLDER = /\\\$|\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS\b|\$\{(CLAUDE_[A-Z_]+)\}|\$(\d+)(?!\w)|\$([A-Za-z_]\w*)(?!\w)/g

/**
 * A command body with its placeholders filled. A body that uses no argument placeholder gets
 * the arguments appended as `ARGUMENTS: …`, so what the person typed is never lost. A `$N` (or `$ARGUMENTS[N]`)
 * beyond the words given stays as written, and so does an unknown `${CLAUDE_…}` or a `$name`
 * the frontmatter does not declare; a declared name with no word given is empty.
 */
export function renderBody(body: string, args: string, vars: Readonly<Record<string, string>>, names: readonly string[] = []): string {
  const raw = args.trim()
  const words = raw === '' ? [] : splitArgs(raw)
  let usedArgs = false
  const out = body.replace(PLACEHOLDER, (match, index?: string, name?: string, n?: string, named?: string) => {
    if (match === '\\$') return '$'
    if (name !== undefined) return vars[name] ?? match
    if (named !== undefined) {
      const at = names.indexOf(named)
      if (at < 0) return match
      usedArgs = true
      return words[at] ?? ''
    }
    usedArgs = true
    if (index !== undefined) return words[Number(index)] ?? match
    if (n !== undefined) return words[Number(n)] ?? match
    return raw
  })
  return usedArgs || raw === '' ? out : `${out}\n\nARGUMENTS: ${raw}`
}
