import { ModloopError } from '../core/errors.js'
import type { Command } from './command.js'

/**
 * What the argument parser refuses, worded as Claude Code's CLI (commander) words it, so a script
 * or a wrapper that reads `claude`'s errors reads modloop's: `error: unknown option '--x'` with a
 * `(Did you mean --y?)` line when a long option is close, `error: option '--x <value>' argument
 * missing`, `error: too many arguments for 'list'. Expected 0 arguments but got 1.`, `error:
 * missing required argument 'name'`. main prints the message alone (no `modloop:`, no usage), as
 * commander does, and exits 1. Stage `parse` tells main so.
 */
export function parseError(message: string): ModloopError {
  return new ModloopError('MODLOOP_ERR_USAGE', message, { stage: 'parse' })
}

/** node:util parseArgs's error (ERR_PARSE_ARGS_*) in commander's words; undefined for another error. */
export function fromParseArgs(err: unknown, command: Command): ModloopError | undefined {
  const { code, message } = err as { code?: unknown; message?: unknown }
  if (typeof message !== 'string') return undefined
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const flag = /^Unknown option '([^']+)'/.exec(message)?.[1]
    if (flag === undefined) return undefined
    const longs = [...Object.keys(command.options), ...Object.keys(command.aliases ?? {}), 'help'].map((n) => `--${n}`)
    return parseError(`error: unknown option '${flag}'${suggestion(flag, longs)}`)
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    // "Option '-m, --model <value>' argument missing", "Option '--verbose' does not take an argument".
    const m = /^Option '([^']+)' (.+)$/.exec(message)
    return m ? parseError(`error: option '${m[1]}' ${m[2]}`) : undefined
  }
  return undefined
}

/** Too few or too many words after the command's own, as commander says it. */
export function positionalError(command: Command, given: number): ModloopError {
  const { min, max } = command.positionals
  if (given > max) {
    const sub = command.path.length > 0 ? ` for '${command.path.at(-1)}'` : ''
    return parseError(`error: too many arguments${sub}. Expected ${max} argument${max === 1 ? '' : 's'} but got ${given}.`)
  }
  const name = argumentNames(command)[given]
  return parseError(name === undefined ? `error: missing required argument (usage: ${command.usage})` : `error: missing required argument '${name}'`)
}

/**
 * The arguments the usage names, in order: the words right after the command's (`modloop init
 * mod|distribution <name>`), or, when options come first, its `<name>`s (`modloop mcp add [-s ...] <name> <commandOrUrl>`).
 */
function argumentNames(command: Command): string[] {
  const words = command.usage.split(' ').slice(1 + command.path.length)
  const optionAt = words.findIndex((w) => w.startsWith('[') || w.startsWith('-'))
  const leading = optionAt === -1 ? words : words.slice(0, optionAt)
  const names = leading.length > 0 ? leading : [...command.usage.matchAll(/<([^>]+)>/g)].map((m) => m[0])
  return names.map((w) => w.replace(/^<(.*)>$/, '$1'))
}

// Close enough to be a slip of the keyboard: commander's measure (an edit distance of at most 3, and more alike than not).
const MAX_DISTANCE = 3
const MIN_SIMILARITY = 0.4

/** `\n(Did you mean --model?)` for a long option a few keystrokes from a known one; '' otherwise. */
export function suggestion(flag: string, longs: readonly string[]): string {
  if (!flag.startsWith('--')) return ''
  const word = flag.slice(2)
  let best = MAX_DISTANCE
  let close: string[] = []
  for (const name of new Set(longs.map((l) => l.slice(2)))) {
    if (name.length <= 1) continue
    const distance = editDistance(word, name)
    const longer = Math.max(word.length, name.length)
    if ((longer - distance) / longer <= MIN_SIMILARITY) continue
    if (distance < best) {
      best = distance
      close = [name]
    } else if (distance === best) close.push(name)
  }
  const named = close.sort((a, b) => a.localeCompare(b)).map((n) => `--${n}`)
  if (named.length > 1) return `\n(Did you mean one of ${named.join(', ')}?)`
  return named.length === 1 ? `\n(Did you mean ${named[0]}?)` : ''
}

/** Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > MAX_DISTANCE) return Math.max(a.length, b.length)
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1)
    }
  }
  return d[a.length]![b.length]!
}
