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

/**
 * Compiles a search pattern. Unicode mode first (as ripgrep matches); a pattern only the older
 * JavaScript syntax accepts (identity escapes such as `\-`) falls back to it.
 */
export function compilePattern(pattern: string, options: { ignoreCase: boolean; multiline: boolean }): RegExp {
  const { source, flags: inline } = translatePattern(pattern)
  const flags = new Set(inline)
  if (options.ignoreCase) flags.add('i')
  if (options.multiline) for (const f of 'gms') flags.add(f)
  const base = [...flags].join('')
  try {
    return new RegExp(source, `${base}u`)
  } catch (err) {
    // The older syntax reads a brace that is no repetition as a literal; ripgrep refuses it.
    const brace = strayBrace(source)
    if (brace !== undefined) throw new Error(`a "{" at ${brace} does not start a counted repetition ({n}, {n,} or {n,m}); escape it as \\{ to match it`, { cause: err })
    return new RegExp(source, base)
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
