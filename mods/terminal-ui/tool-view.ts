import { isAbsolute, relative } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import cliTruncate from 'cli-truncate'
import stringWidth from 'string-width'
import type { Paint } from './color.js'

export type Outcome = 'ok' | 'error' | 'denied' | 'interrupted'

export const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']
const SHOWN_LINES = 4
const DIFF_LINES = 24

// Cut by columns, not UTF-16 units: CJK takes two columns, and an emoji cut in half is garbage.
const oneLine = (text: string, max: number) => cut(printable(text).replace(/\s+/g, ' ').trim(), max)

/** At most `max` columns: cli-truncate can go one over where a wide character meets the ellipsis. */
function cut(text: string, max: number): string {
  const out = cliTruncate(text, max)
  return stringWidth(out) > max ? cliTruncate(text, max - 1) : out
}

/**
 * A call's line within `width` columns: the title is cut, not what follows it (the outcome and
 * the time are what the line is there to say).
 */
export function fitTitle(head: string, title: string, tail: string, width: number): string {
  const room = width - stringWidth(head) - stringWidth(tail)
  return `${head}${stringWidth(title) > room ? cut(title, Math.max(8, room)) : title}${tail}`
}

/**
 * `Name(key argument)`: the argument a reader needs to know what the call does. A file under
 * `cwd` is named from there (`Edit(src/app.ts)`), as Claude Code names it: the line has room
 * for what differs, not for the project's own path.
 */
export function toolTitle(name: string, input: unknown, cwd?: string): string {
  if (typeof input !== 'object' || input === null) return name
  const i = input as Record<string, unknown>
  // Its plan is printed above the approval question; repeated in the title it would only be cut short.
  if (name === 'ExitPlanMode') return name
  for (const key of ['command', 'file_path', 'notebook_path', 'pattern', 'url', 'path', 'subject', 'description', 'skill', 'prompt']) {
    const value = i[key]
    if (typeof value === 'string') return `${name}(${oneLine(key.endsWith('path') ? shownPath(value, cwd) : value, 60)})`
  }
  if (Array.isArray(i.todos)) return `${name}(${i.todos.length} tasks)`
  // The questions themselves are in the chooser below it.
  if (Array.isArray(i.questions)) return `${name}(${i.questions.length} question${i.questions.length === 1 ? '' : 's'})`
  return `${name}(${oneLine(JSON.stringify(input), 50)})`
}

function shownPath(path: string, cwd: string | undefined): string {
  if (!cwd || !isAbsolute(path)) return path
  const rel = relative(cwd, path)
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path
}

export function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(1)}s`
}

/** The line of a finished call: mark, title, outcome and duration. */
export function doneLine(title: string, outcome: Outcome, ms: number, paint: Paint, width = Infinity): string {
  const mark = outcome === 'ok' ? paint.green('✔') : outcome === 'denied' ? paint.yellow('⊘') : outcome === 'interrupted' ? paint.yellow('■') : paint.red('✖')
  const word = outcome === 'ok' ? paint.dim('ok') : outcome === 'error' ? paint.red('error') : paint.yellow(outcome)
  return fitTitle(`${mark} `, paint.bold(title), ` ${paint.dim('·')} ${word} ${paint.dim(`· ${seconds(ms)}`)}`, width)
}

/** What a finished call shows below its line: an Edit's diff, the todo list, or the head of its output. */
export function detailLines(name: string, result: unknown, text: string, outcome: Outcome, paint: Paint): string[] {
  if (outcome === 'ok' && isObject(result) && Array.isArray(result.structuredPatch)) return diffLines(result.structuredPatch, paint)
  if (outcome === 'ok' && isObject(result) && Array.isArray(result.newTodos)) return todoLines(result.newTodos, paint)
  const lines = printable(text).replace(/\s+$/, '').split('\n').filter((l, i, all) => l !== '' || i < all.length - 1)
  if (lines.length === 0 || (lines.length === 1 && lines[0] === '')) return []
  const head = lines.slice(0, SHOWN_LINES).map((l, i) => `  ${i === 0 ? '⎿' : ' '}  ${l.replace(/\t/g, '  ')}`)
  const style = outcome === 'ok' ? paint.dim : outcome === 'error' ? paint.red : paint.yellow
  const more = lines.length > SHOWN_LINES ? [paint.dim(`     … +${lines.length - SHOWN_LINES} lines`)] : []
  void name
  return [...head.map(style), ...more]
}

/**
 * A tool's output as the terminal may show it: its escape sequences (colours, cursor moves, a
 * screen clear) and other control characters removed, tabs kept for the caller to expand, so
 * nothing it printed can move the cursor or break the live region.
 */
export function printable(text: string): string {
  // A carriage return rewrites its line (progress bars): what stays on screen is the last part.
  const lines = stripVTControlCharacters(text).split('\n').map((l) => l.split('\r').filter((part) => part !== '').at(-1) ?? '')
  return lines.join('\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '')
}

interface Hunk { oldStart: number; newStart: number; lines: string[] }

export function diffLines(hunks: unknown[], paint: Paint): string[] {
  const out: string[] = []
  for (const h of hunks as Hunk[]) {
    if (!h || !Array.isArray(h.lines)) continue
    if (out.length > 0) out.push(paint.dim('     ⋮'))
    let oldN = h.oldStart
    let newN = h.newStart
    for (const line of h.lines) {
      const mark = line[0]
      const body = printable(line.slice(1)).replace(/\t/g, '  ')
      if (mark === '-') out.push(paint.red(`  ${String(oldN++).padStart(4)} - ${body}`))
      else if (mark === '+') out.push(paint.green(`  ${String(newN++).padStart(4)} + ${body}`))
      else if (mark === ' ') {
        out.push(paint.dim(`  ${String(newN).padStart(4)}   ${body}`))
        oldN++
        newN++
      }
    }
  }
  if (out.length <= DIFF_LINES) return out
  return [...out.slice(0, DIFF_LINES), paint.dim(`     … +${out.length - DIFF_LINES} diff lines`)]
}

export function todoLines(todos: unknown[], paint: Paint): string[] {
  return todos.map((t) => {
    const todo = (isObject(t) ? t : {}) as { content?: string; status?: string }
    const content = printable(String(todo.content ?? ''))
    if (todo.status === 'completed') return `  ${paint.green('☒')} ${paint.dim(content)}`
    if (todo.status === 'in_progress') return `  ${paint.yellow('◐')} ${paint.bold(content)}`
    return `  ☐ ${content}`
  })
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null
}
