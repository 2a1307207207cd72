/** One `@path` import found in a memory file. */
export interface ImportRef {
  /** As written, without the `@`. */
  raw: string
  /** The path, with `\ ` escapes undone. */
  path: string
  /** 1-based line in the text given (blank comments with `keepLines` to keep the file's numbering). */
  line: number
  /**
   * The token may be no path at all (`@someone`, `@scope/package`, `@Makefile`): it imports a file
   * that exists, and is passed over in silence otherwise.
   */
  unsure?: true
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/
const COMMENT_OPEN = /^ {0,3}<!--/
const CODE_SPAN = /(`+)[^`]*?\1/g
const IMPORT = /(?:^|\s)@((?:[^\s\\]|\\ )+)/g
const TRAILING_PUNCTUATION = /[.,;:!?)\]'"]+$/

/** Tracks fenced code blocks line by line: inside one, markdown rules (comments, imports) do not apply. */
class FenceState {
  private open: string | undefined

  /** Feeds one line; true when the line belongs to a fence (its opening or closing line included). */
  step(line: string): boolean {
    const m = FENCE.exec(line)
    if (this.open !== undefined) {
      if (m && m[1]![0] === this.open[0] && m[1]!.length >= this.open.length && line.trim() === m[1]) this.open = undefined
      return true
    }
    if (m) {
      this.open = m[1]
      return true
    }
    return false
  }
}

/**
 * Removes block-level HTML comments (a `<!--` that starts a line, through the `-->` that closes
 * it): authors keep notes for humans there. Comments inside code fences and inline ones stay; an
 * unclosed comment is left alone rather than swallowing the rest of the file. `keepLines` blanks
 * the comment instead, so line numbers still match the file on disk (for messages naming a line).
 */
export function stripBlockComments(text: string, options: { keepLines?: boolean } = {}): string {
  if (!text.includes('<!--')) return text
  const lines = text.split('\n')
  const out: string[] = []
  const fence = new FenceState()
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (fence.step(line) || !COMMENT_OPEN.test(line)) {
      out.push(line)
      continue
    }
    let end = -1
    let j = i
    for (; j < lines.length; j++) {
      end = lines[j]!.indexOf('-->', j === i ? line.indexOf('<!--') + 4 : 0)
      if (end !== -1) break
    }
    if (end === -1) {
      out.push(line)
      continue
    }
    const rest = lines[j]!.slice(end + 3)
    if (options.keepLines) for (let k = i; k < j; k++) out.push('')
    if (rest.trim() !== '' || options.keepLines) out.push(rest.trim() === '' ? '' : rest)
    i = j
  }
  return out.join('\n')
}

/**
 * The `@path` imports of a memory file, outside code fences and inline code spans. Tokens that do
 * not look like a file (no `./`, `../`, `~/` or `/` start, no extension) are `unsure`: memory files
 * mention `@scope/package` names and `@handles`, which are no imports and must not each be
 * reported as missing, yet `@Makefile` or `@docs/LICENSE` names a file Claude Code imports.
 */
export function findImports(text: string): ImportRef[] {
  const out: ImportRef[] = []
  const fence = new FenceState()
  const lines = text.split('\n')
  lines.forEach((line, i) => {
    if (fence.step(line) || !line.includes('@')) return
    const prose = line.replace(CODE_SPAN, (span) => ' '.repeat(span.length))
    for (const m of prose.matchAll(IMPORT)) {
      const raw = m[1]!.replace(TRAILING_PUNCTUATION, '')
      const path = raw.replace(/\\ /g, ' ')
      if (path !== '') out.push({ raw, path, line: i + 1, ...(looksLikeFile(path) ? {} : { unsure: true as const }) })
    }
  })
  return out
}

function looksLikeFile(path: string): boolean {
  if (/^(?:\.{1,2}\/|~\/|\/)/.test(path)) return true
  const name = path.slice(path.lastIndexOf('/') + 1)
  return /^[^.].*\.[A-Za-z0-9]{1,10}$/.test(name)
}
