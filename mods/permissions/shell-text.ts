/**
 * What shell-quote does not do for us, done before it tokenizes: unquoted newlines separate
 * commands (shell-quote reads them as spaces), comments end at the line's end (shell-quote runs
 * them to the end of the input), and here-document bodies are data, not commands — except that
 * an unquoted body still runs its `$(…)` and backticks, so those bodies are handed back to scan.
 */
export interface Prepared {
  text: string
  /** Bodies of here-documents whose delimiter is unquoted. */
  heredocs: string[]
  /** False for unbalanced quotes, parentheses or an unterminated here-document. */
  balanced: boolean
}

interface Pending { delimiter: string; stripTabs: boolean; quoted: boolean }

export function prepare(command: string): Prepared {
  const s = command
  let out = ''
  let quote = ''
  let depth = 0
  let balanced = true
  const heredocs: string[] = []
  let pending: Pending[] = []
  let i = 0
  while (i < s.length) {
    const c = s[i]!
    if (quote === "'") {
      out += c
      if (c === "'") quote = ''
      i++
    } else if (quote === '"') {
      if (c === '\\' && i + 1 < s.length) {
        out += c + s[i + 1]
        i += 2
        continue
      }
      out += c
      if (c === '"') quote = ''
      i++
    } else if (c === '\\') {
      // A backslash-newline joins lines; any other escape passes through for shell-quote.
      out += s[i + 1] === '\n' ? ' ' : c + (s[i + 1] ?? '')
      i += 2
    } else if (c === "'" || c === '"') {
      quote = c
      out += c
      i++
    } else if (c === '#' && (i === 0 || /[\s;&|()]/.test(s[i - 1]!))) {
      while (i < s.length && s[i] !== '\n') i++
    } else if (c === '<' && s[i + 1] === '<' && s[i + 2] !== '<') {
      const marker = readHeredocMarker(s, i + 2)
      if (!marker) {
        out += '<<'
        i += 2
        continue
      }
      pending.push(marker.pending)
      out += `<< ${marker.pending.delimiter}`
      i = marker.end
    } else if (/[0-9]/.test(c) && (i === 0 || /[\s;&|()]/.test(s[i - 1]!)) && /^[0-9]+[<>]/.test(s.slice(i, i + 12))) {
      // A descriptor number touching its redirection (`2>err.log`, `2>&1`) belongs to the
      // redirection, not the command's words; the tokenizer would make it an argument. Which
      // descriptor is redirected matters to no rule: the file it writes does.
      while (/[0-9]/.test(s[i]!)) i++
    } else if (c === '\n') {
      out += ' ; '
      i++
      for (const doc of pending) {
        const body = readHeredocBody(s, i, doc)
        if (!body) {
          balanced = false
          i = s.length
          break
        }
        if (!doc.quoted) heredocs.push(body.text)
        i = body.end
      }
      pending = []
    } else {
      if (c === '(') depth++
      if (c === ')') depth--
      if (depth < 0) balanced = false
      out += c
      i++
    }
  }
  if (quote !== '' || depth !== 0 || pending.length > 0) balanced = false
  return { text: out, heredocs, balanced }
}

function readHeredocMarker(s: string, from: number): { pending: Pending; end: number } | undefined {
  let i = from
  const stripTabs = s[i] === '-'
  if (stripTabs) i++
  while (s[i] === ' ' || s[i] === '\t') i++
  const q = s[i]
  if (q === "'" || q === '"') {
    const close = s.indexOf(q, i + 1)
    if (close < 0) return undefined
    return { pending: { delimiter: s.slice(i + 1, close), stripTabs, quoted: true }, end: close + 1 }
  }
  const word = /^[^\s;&|<>()]+/.exec(s.slice(i))?.[0]
  if (!word) return undefined
  const quoted = word.includes('\\') || word.includes("'") || word.includes('"')
  return { pending: { delimiter: word.replace(/[\\'"]/g, ''), stripTabs, quoted }, end: i + word.length }
}

function readHeredocBody(s: string, from: number, doc: Pending): { text: string; end: number } | undefined {
  let i = from
  const lines: string[] = []
  while (i <= s.length) {
    const nl = s.indexOf('\n', i)
    const end = nl < 0 ? s.length : nl
    const line = s.slice(i, end)
    if ((doc.stripTabs ? line.replace(/^\t+/, '') : line) === doc.delimiter) return { text: lines.join('\n'), end: nl < 0 ? s.length : nl + 1 }
    lines.push(line)
    if (nl < 0) return undefined
    i = nl + 1
  }
  return undefined
}

/**
 * The commands inside `$(…)` and backticks of a word. shell-quote returns quoted text as plain
 * words, so a word that held `"$(rm x)"` must be scanned: such commands run. (Single quotes keep
 * them inert, but that is lost by then; treating them as commands errs on the side of asking.)
 */
export function substitutions(word: string): { commands: string[]; balanced: boolean } {
  const commands: string[] = []
  let balanced = true
  for (let i = 0; i < word.length; i++) {
    if (word[i] === '$' && word[i + 1] === '(') {
      let depth = 1
      let j = i + 2
      for (; j < word.length && depth > 0; j++) {
        if (word[j] === '(') depth++
        else if (word[j] === ')') depth--
      }
      if (depth > 0) balanced = false
      commands.push(word.slice(i + 2, depth > 0 ? word.length : j - 1))
      i = j - 1
    } else if (word[i] === '`') {
      const close = word.indexOf('`', i + 1)
      if (close < 0) balanced = false
      commands.push(word.slice(i + 1, close < 0 ? word.length : close))
      i = close < 0 ? word.length : close
    }
  }
  return { commands, balanced }
}
