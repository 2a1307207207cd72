import { RE2JS } from 're2js'

const POSIX_CLASSES: Record<string, string> = {
  alnum: 'a-zA-Z0-9', alpha: 'a-zA-Z', ascii: '\\x00-\\x7F', blank: ' \\t', cntrl: '\\x00-\\x1F\\x7F', digit: '0-9',
  graph: '!-~', lower: 'a-z', print: ' -~', punct: '!-\\/:-@\\[-`{-~', space: '\\s', upper: 'A-Z', word: '\\w', xdigit: '0-9A-Fa-f',
}

/**
 * Rewrites the ripgrep (Rust regex) spellings JavaScript lacks: leading inline flags, `(?P<name>`,
 * `\A` / `\z`, `\x{…}` and POSIX classes. Anything else is the same in both dialects or is
 * reported as invalid.
 */
export function translatePattern(pattern: string): { source: string; flags: string } {
  let source = pattern
  let flags = ''
  const lead = /^\(\?([imsU]+)\)/.exec(source)
  if (lead) {
    flags = [...new Set(lead[1]!.replace('U', ''))].join('')
    source = source.slice(lead[0].length)
  }
  source = source
    .replace(/\(\?P</g, '(?<')
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$')
    .replace(/\\x\{([0-9a-fA-F]+)\}/g, '\\u{$1}')
    .replace(/\[:(\w+):\]/g, (whole, name: string) => POSIX_CLASSES[name] ?? whole)
  return { source, flags }
}

/** A compiled search pattern: RE2 semantics, so every test runs in time linear in the text. */
export interface LinearPattern {
  test(line: string): boolean
  /**
   * Each match's start and end offsets, in order, searching from `from` (the text before it still
   * counts for `^`, `\b`, `\A`). In UTF-8 bytes the offsets are byte offsets.
   */
  matches(text: string | Uint8Array, from?: number): Generator<[number, number]>
  /** Whether case is folded (`-i` or a leading `(?i)`): no literal may then narrow the search. */
  readonly ignoresCase: boolean
  /** The pattern as JavaScript would spell it, for finding a literal every match holds. */
  readonly source: string
}

// What RE2 refuses that a backtracking engine would run, said as ripgrep without -P says it.
const UNSUPPORTED: [RegExp, string][] = [
  [/invalid escape sequence: `\\[1-9]/, 'backreferences (\\1 ...)'],
  [/`\(\?[=!]/, 'look-ahead ((?= ...) and (?! ...))'],
  [/`\(\?<[=!]/, 'look-behind ((?<= ...) and (?<! ...))'],
]

/**
 * Compiles a search pattern with re2js, a linear-time engine with the syntax and semantics of
 * ripgrep's default one: `(a+)+$` on a long line answers at once instead of backtracking for
 * minutes with the event loop blocked. Constructs only a backtracking engine has (backreferences,
 * look-around) are refused with an error naming the construct, as ripgrep refuses them without -P.
 */
export function compilePattern(pattern: string, options: { ignoreCase: boolean; multiline: boolean }): LinearPattern {
  const { source, flags: inline } = translatePattern(pattern)
  const brace = strayBrace(source)
  if (brace !== undefined) throw new Error(`a "{" at ${brace} does not start a counted repetition ({n}, {n,} or {n,m}); escape it as \\{ to match it`)
  const ignoresCase = options.ignoreCase || inline.includes('i') || /\(\?[a-zA-Z]*i[a-zA-Z]*[:)]/.test(pattern)
  let flags = options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0
  if (options.multiline) flags |= RE2JS.MULTILINE | RE2JS.DOTALL
  let re: RE2JS
  try {
    re = RE2JS.compile(pattern, flags)
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err)
    const construct = UNSUPPORTED.find(([test]) => test.test(message))?.[1]
    throw new Error(construct ? `${construct} are not supported: Grep uses a linear-time engine, like ripgrep without -P (${message})` : message, { cause: err })
  }
  return {
    ignoresCase,
    source,
    test: (line) => re.matcher(line).find(),
    *matches(text, from = 0) {
      const m = re.matcher(text)
      if (!m.find(from)) return
      do yield [m.start(), m.end()]
      while (m.find())
    },
  }
}

/** The offset of the first `{` outside a class and unescaped that opens no `{n}`, `{n,}` or `{n,m}`. */
function strayBrace(source: string): number | undefined {
  let inClass = false
  for (let i = 0; i < source.length; i++) {
    const c = source[i]
    if (c === '\\') {
      // \p{…}, \u{…}: the braces belong to the escape.
      if ('pPux'.includes(source[i + 1] ?? '') && source[i + 2] === '{') i = Math.max(i + 1, source.indexOf('}', i))
      else i++
    } else if (inClass) inClass = c !== ']'
    else if (c === '[') inClass = true
    else if (c === '{' && (i === 0 || !/^\{\d+(,\d*)?\}/.test(source.slice(i)))) return i
  }
  return undefined
}
