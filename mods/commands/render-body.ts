import { parse } from 'shell-quote'

/** The arguments of `/name args` as words, quoted the way a shell reads them ("two words" is one). */
export function splitArgs(args: string): string[] {
  // Variables stay as written: the person typed text for the prompt, not for a shell.
  const words = parse(args, (name: string) => `$${name}`)
  return words.map((w) => (typeof w === 'string' ? w : 'comment' in w ? `#${w.comment}` : w.op === 'glob' ? w.pattern : w.op))
}

// `\$` escapes; `$ARGUMENTS[N]` is 0-based; `$1`…`$9` are 1-based like a shell's; `${CLAUDE_…}` are session values.
const PLACEHOLDER = /\\\$|\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS\b|\$\{(CLAUDE_[A-Z_]+)\}|\$([1-9])(?!\d)/g

/**
 * A command body with its placeholders filled. A body that uses no argument placeholder gets
 * the arguments appended as `ARGUMENTS: …`, so what the person typed is never lost. A `$N`
 * beyond the words given stays as written, and so does an unknown `${CLAUDE_…}`.
 */
export function renderBody(body: string, args: string, vars: Readonly<Record<string, string>>): string {
  const raw = args.trim()
  const words = raw === '' ? [] : splitArgs(raw)
  let usedArgs = false
  const out = body.replace(PLACEHOLDER, (match, index?: string, name?: string, n?: string) => {
    if (match === '\\$') return '$'
    if (name !== undefined) return vars[name] ?? match
    usedArgs = true
    if (index !== undefined) return words[Number(index)] ?? ''
    if (n !== undefined) return words[Number(n) - 1] ?? match
    return raw
  })
  return usedArgs || raw === '' ? out : `${out}\n\nARGUMENTS: ${raw}`
}
