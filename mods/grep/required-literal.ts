// Characters that stand for themselves in a pattern; any other breaks a literal run.
const PLAIN = /[A-Za-z0-9_ \-,:;=<>!@#%&'"~`/]/
// Escapes of punctuation that stand for the character itself.
const ESCAPED = /[.*+?()[\]{}|^$\\/\-]/
const QUANTIFIERS = new Set(['?', '*', '+', '{'])

/**
 * The longest run of plain characters every match of `source` must contain, or undefined when
 * none can be told apart safely (a top-level `|`, a run under 3 characters). Only the top level
 * counts: groups and classes are skipped whole, a character a quantifier follows is dropped (it
 * may occur zero times), and anchors, escapes of classes and the like end a run. A text without
 * the run has no match, so Grep passes over it without splitting or testing a line.
 */
export function requiredLiteral(source: string): string | undefined {
  let best = ''
  let run = ''
  const end = () => {
    if (run.length > best.length) best = run
    run = ''
  }
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!
    if (c === '|') return undefined
    if (QUANTIFIERS.has(c)) {
      run = run.slice(0, -1)
      end()
      // A counted repetition's body ({2,5}) is no text to find.
      if (c === '{') {
        const close = source.indexOf('}', i)
        if (close === -1) return undefined
        i = close
      }
      continue
    }
    if (c === '(' || c === '[') {
      end()
      i = skipGroup(source, i)
      if (i < 0) return undefined
      continue
    }
    if (c === '\\') {
      const next = source[i + 1]
      if (next !== undefined && ESCAPED.test(next)) {
        run += next
        i++
      } else {
        end()
        i = escapeEnd(source, i)
      }
      continue
    }
    if (PLAIN.test(c)) run += c
    else end()
  }
  end()
  return best.length >= 3 ? best : undefined
}

/** The index of the last character of the escape at `start` (`\\x41`, `\\u{1F600}`, `\\cJ`, `\\p{L}`, `\\k<name>`, `\\12`). */
function escapeEnd(source: string, start: number): number {
  const kind = source[start + 1]
  const upTo = (close: string) => {
    const at = source.indexOf(close, start + 2)
    return at === -1 ? source.length - 1 : at
  }
  if (kind === undefined) return start
  if (kind === 'x') return start + 3
  if (kind === 'u') return source[start + 2] === '{' ? upTo('}') : start + 5
  if (kind === 'c') return start + 2
  if ((kind === 'p' || kind === 'P') && source[start + 2] === '{') return upTo('}')
  if (kind === 'k' && source[start + 2] === '<') return upTo('>')
  let i = start + 1
  if (/[0-9]/.test(kind)) while (/[0-9]/.test(source[i + 1] ?? '')) i++
  return i
}

/** The index of the `)` or `]` closing what opens at `start`, or -1 when it does not close. */
function skipGroup(source: string, start: number): number {
  let depth = 0
  let inClass = false
  for (let i = start; i < source.length; i++) {
    const c = source[i]
    if (c === '\\') {
      i++
      continue
    }
    if (inClass) {
      // A `]` right after `[` or `[^` is a member, not the end.
      if (c === ']' && !(source[i - 1] === '[' || (source[i - 1] === '^' && source[i - 2] === '['))) {
        inClass = false
        if (depth === 0) return i
      }
      continue
    }
    if (c === '[') inClass = true
    else if (c === '(') depth++
    else if (c === ')' && --depth === 0) return i
  }
  return -1
}
