import { parse } from 'shell-quote'
import { prepare, substitutions } from './shell-text.js'

/** One simple command of a compound command line. */
export interface Part {
  /** Its words; a glob stays as written, a substitution becomes `$(...)`. */
  argv: string[]
  redirects: { op: string; target: string }[]
}

export interface Split {
  parts: Part[]
  /** The whole line as tokens, separators included, for deny rules written across parts. */
  whole: string
  /** False when the line could not be read with confidence: then no allow applies to it. */
  balanced: boolean
  /** Whether a command is sent to the background with `&`: it runs on past the checks. */
  background: boolean
  /** Whether a command of the line is a subshell `( … )` or a group `{ …; }`. */
  grouped: boolean
}

type Token = string | { op: string; pattern?: string } | { comment: string }

const SEPARATORS = new Set(['&&', '||', ';', '|', '|&', '&', ';;', ';&', ';;&'])
const REDIRECTS = new Set(['>', '>>', '<', '>&', '<&', '&>', '&>>', '>|', '<>', '<<<', '<<', '<<-'])
// Reserved words that open a compound command: what follows them is the command.
const OPENERS = new Set(['if', 'then', 'else', 'elif', 'while', 'until', 'do', '!', '{'])
// Reserved words that close one: alone they are no command at all.
const CLOSERS = new Set(['fi', 'done', 'esac', '}'])

/** Keeps `$VAR` as written: the rules match the text, not the values. */
const keepVariables = (key: string) => `$${key}`

/**
 * Splits a command line into its simple commands: on `&&`, `||`, `;`, `|`, `|&`, `&` and newlines,
 * into subshells, `$(…)`, backticks and process substitutions. Every part must be allowed for the
 * line to be allowed; a deny on any part denies it.
 */
export function splitCommand(command: string): Split {
  const prepared = prepare(command)
  let balanced = prepared.balanced
  let tokens: Token[]
  try {
    tokens = parse(prepared.text, keepVariables) as Token[]
  } catch {
    return { parts: [{ argv: [command], redirects: [] }], whole: command, balanced: false, background: false, grouped: false }
  }
  const parts: Part[] = []
  let background = tokens.some((t) => isOp(t, '&'))
  const nested = (text: string) => {
    const inner = splitCommand(text)
    parts.push(...inner.parts)
    if (!inner.balanced) balanced = false
    if (inner.background) background = true
  }
  const end = walk(tokens, 0, parts, nested, (ok) => { if (!ok) balanced = false })
  if (end < tokens.length) balanced = false
  for (const body of prepared.heredocs) for (const c of substitutions(body).commands) nested(c)
  const grouped = tokens.some((t, i) => (isOp(t, '(') || t === '{') && startsCommand(tokens[i - 1]))
  return { parts, whole: tokens.map(render).join(' '), balanced, background, grouped }
}

/** Whether the token after `prev` is at a command's start (`$(` is a substitution's, not a subshell's). */
const startsCommand = (prev: Token | undefined) => prev === undefined || isOp(prev, '(') || (typeof prev === 'object' && 'op' in prev && SEPARATORS.has(prev.op))

/** Walks tokens from `start` until a `)` closes the group (or the end); returns the index after it. */
function walk(tokens: Token[], start: number, parts: Part[], nested: (text: string) => void, ok: (ok: boolean) => void): number {
  let current: Part = { argv: [], redirects: [] }
  const flush = () => {
    const part = trimReserved(current)
    if (part) parts.push(part)
    current = { argv: [], redirects: [] }
  }
  let i = start
  while (i < tokens.length) {
    const t = tokens[i]!
    if (typeof t === 'string') {
      const next = tokens[i + 1]
      if (t.endsWith('$') && isOp(next, '(')) {
        current.argv.push(`${t.slice(0, -1)}$(...)`)
        i = walk(tokens, i + 2, parts, nested, ok)
        continue
      }
      current.argv.push(t)
      const inner = substitutions(t)
      if (!inner.balanced) ok(false)
      for (const c of inner.commands) nested(c)
      i++
    } else if ('comment' in t) {
      i++
    } else if (t.op === 'glob') {
      current.argv.push(t.pattern ?? '*')
      i++
    } else if (SEPARATORS.has(t.op)) {
      flush()
      i++
    } else if (t.op === '(' || t.op === '<(' || t.op === '>(') {
      // A subshell's commands stand alone; a process substitution leaves a placeholder word.
      if (t.op !== '(') current.argv.push(`${t.op}...)`)
      else if (current.argv.length > 0) ok(false)
      i = walk(tokens, i + 1, parts, nested, ok)
    } else if (t.op === ')') {
      flush()
      if (start === 0) ok(false)
      return i + 1
    } else if (REDIRECTS.has(t.op)) {
      const target = tokens[i + 1]
      current.redirects.push({ op: t.op, target: typeof target === 'string' ? target : target && 'pattern' in target ? target.pattern ?? '' : '' })
      i += typeof target === 'string' || (target && 'pattern' in target) ? 2 : 1
    } else {
      flush()
      i++
    }
  }
  flush()
  if (start > 0) ok(false)
  return i
}

function isOp(t: Token | undefined, op: string): boolean {
  return typeof t === 'object' && 'op' in t && t.op === op
}

function trimReserved(part: Part): Part | undefined {
  let k = 0
  while (k < part.argv.length && OPENERS.has(part.argv[k]!)) k++
  const argv = part.argv.slice(k)
  while (argv.length > 0 && CLOSERS.has(argv[argv.length - 1]!)) argv.pop()
  if (argv.length === 0 && part.redirects.length === 0) return undefined
  return { argv, redirects: part.redirects }
}

function render(t: Token): string {
  if (typeof t === 'string') return t
  if ('comment' in t) return ''
  return t.op === 'glob' ? t.pattern ?? '*' : t.op
}

/** Where output goes nowhere, or to a stream the command has anyway. */
export const DISCARD = new Set(['/dev/null', '/dev/stdout', '/dev/stderr'])

/** A redirection that touches no file: to or from /dev/null, or one descriptor onto another (`2>&1`, `>&-`). */
const fileless = (r: Part['redirects'][number]) => DISCARD.has(r.target) || ((r.op === '>&' || r.op === '<&') && /^(\d+|-)$/.test(r.target))

/**
 * A part as text for matching: its words, then the redirections that touch files. `npm test 2>&1`
 * and `npm test > /dev/null` are `npm test` to a rule, as in Claude Code.
 */
export function partText(argv: readonly string[], redirects: Part['redirects']): string {
  return [...argv, ...redirects.filter((r) => !fileless(r)).flatMap((r) => [r.op, r.target])].join(' ')
}

/** A Bash rule's pattern, read by the same tokenizer so both sides compare alike. */
export function normalizePattern(pattern: string): string {
  const split = splitCommand(pattern)
  return split.parts.length === 1 ? partText(split.parts[0]!.argv, split.parts[0]!.redirects) : split.whole
}
