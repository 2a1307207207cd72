import { readdir, readFile, stat } from 'node:fs/promises'
import type { PromptMentionInput, PromptMentionResult } from '../../core/events/types.js'
import { checkPath } from '../_shared/allowed-paths.js'
import { numberLines, splitLines } from '../_shared/numbered-lines.js'
import { hashBytes, recordRead } from '../_shared/read-state.js'
import { decodeText, looksBinary } from '../_shared/text-file.js'

export interface MentionOptions {
  additionalDirectories: readonly string[]
  /** Lines attached when the mention names no range. */
  maxLines: number
  maxLineChars: number
  maxFileBytes: number
  maxEntries: number
}

export interface MentionContext {
  cwd: string
  sessionId: string
  warn(message: string): void
  /** The permission verdict on reading a path, as a Read call of it would get (`$.tool.check`). */
  check(path: string): Promise<{ decision: string; reason?: string; rule?: string }>
}

/**
 * Reads what an `@mention` names: a file as numbered lines (the range of `#L10-20` when given),
 * or a directory as a listing. What the model reads says which mention it answers. A file read
 * in full or in part counts as read, so the model may Edit it without reading it again.
 */
export async function readMention(e: PromptMentionInput, options: MentionOptions, ctx: MentionContext): Promise<PromptMentionResult> {
  const checked = await checkPath(e.path, ctx.cwd, options.additionalDirectories)
  if (!checked.ok) {
    ctx.warn(`${named(e)}: not attached: ${checked.message}`)
    return { deny: checked.message }
  }
  // Read deny rules hold for mentions too (the permission mod follows links to their targets).
  const verdict = await ctx.check(e.path)
  if (verdict.decision === 'deny') {
    const why = verdict.reason ?? `denied${verdict.rule ? ` by the rule ${verdict.rule}` : ''}`
    ctx.warn(`${named(e)}: not attached: reading ${e.path} is not permitted: ${why}`)
    return { deny: `reading ${e.path} is not permitted: ${why}` }
  }
  const info = await stat(checked.path).catch(() => undefined)
  if (!info) {
    ctx.warn(`${named(e)}: not attached: ${e.path} does not exist`)
    return { type: null }
  }
  if (info.isDirectory()) return { type: 'file', context: [await listing(e, checked.path, options.maxEntries)] }
  if (!info.isFile() || info.size > options.maxFileBytes) {
    ctx.warn(`${named(e)}: not attached: ${info.isFile() ? `${info.size} bytes is more than the ${options.maxFileBytes} a mention attaches` : 'not a regular file'}`)
    return { type: null }
  }
  const bytes = await readFile(checked.path)
  if (looksBinary(bytes)) {
    ctx.warn(`${named(e)}: not attached: ${e.path} is a binary file`)
    return { type: null }
  }
  const lines = splitLines(decodeText(bytes).text)
  const start = Math.max(0, (e.offset ?? 1) - 1)
  const selected = lines.slice(start, start + (e.limit ?? options.maxLines))
    .map((l) => (l.length > options.maxLineChars ? `${l.slice(0, options.maxLineChars)}… [line cut]` : l))
  const end = start + selected.length
  recordRead(ctx.sessionId, checked.path, { mtimeMs: info.mtimeMs, hash: hashBytes(bytes), whole: start === 0 && end >= lines.length })
  const head = `The user mentioned @${e.mention}: the contents of ${e.path}`
  if (lines.length === 0) return { type: 'file', context: [`${head}: the file is empty.`] }
  if (selected.length === 0) return { type: 'file', context: [`${head}: the file has ${lines.length} lines, fewer than the line ${start + 1} the mention starts at.`] }
  const range = start > 0 || end < lines.length ? `, lines ${start + 1}-${end} of ${lines.length}` : ''
  const more = end < lines.length ? `\n\n(${lines.length - end} more lines; read on with the Read tool from line ${end + 1}.)` : ''
  return { type: 'file', context: [`${head}${range}, numbered like cat -n:\n${numberLines(selected, start + 1)}${more}`] }
}

/** The mention as a warning names it: with the file and line it was written in, when not in the prompt itself. */
const named = (e: PromptMentionInput) => `@${e.mention}${e.from ? ` (in ${e.from})` : ''}`

async function listing(e: PromptMentionInput, dir: string, max: number): Promise<string> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
  const names = entries.map((d) => (d.isDirectory() ? `${d.name}/` : d.name)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const shown = names.slice(0, max).map((n) => `- ${n}`)
  if (names.length > max) shown.push(`- … and ${names.length - max} more`)
  const body = names.length === 0 ? '(empty)' : shown.join('\n')
  return `The user mentioned the directory @${e.mention}: the entries of ${e.path}:\n${body}`
}
