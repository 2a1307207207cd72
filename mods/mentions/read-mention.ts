import type { ImageBlockParam } from '@anthropic-ai/sdk/resources/messages'
import { readdir } from 'node:fs/promises'
import type { PromptMentionInput, PromptMentionResult } from '../../core/events/types.js'
import { checkPath } from '../_shared/allowed-paths.js'
import { lineWindow } from '../_shared/numbered-lines.js'
import { readRegular } from '../_shared/read-regular.js'
import { hashBytes, recordRead } from '../_shared/read-state.js'
import { decodeText, looksBinary } from '../_shared/text-file.js'
import { imageHeader } from '../read/image-header.js'
import { readImage } from '../read/read-image.js'

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
 * an image as the image, or a directory as a listing. What the model reads says which mention it answers. A file read
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
  const file = await readRegular(checked.path, options.maxFileBytes)
  if (!file.ok) {
    if (file.why === 'directory') return { type: 'file', context: [await listing(e, checked.path, options.maxEntries)] }
    const why = file.why === 'missing' ? `${e.path} does not exist`
      : file.why === 'too-large' ? `${file.size === undefined ? 'it is' : `${file.size} bytes is`} more than the ${options.maxFileBytes} bytes a mention attaches`
        : file.why === 'irregular' ? 'not a regular file' : `cannot read ${e.path}: ${file.message}`
    ctx.warn(`${named(e)}: not attached: ${why}`)
    return { type: null }
  }
  // A picture is shown as the picture, as a Read of it would show it (scaled down when large).
  if (imageHeader(file.bytes)) return image(e, file.bytes, ctx)
  if (looksBinary(file.bytes)) {
    ctx.warn(`${named(e)}: not attached: ${e.path} is a binary file`)
    return { type: null }
  }
  const start = Math.max(0, (e.offset ?? 1) - 1)
  const view = lineWindow(decodeText(file.bytes).text, { start, limit: e.limit ?? options.maxLines, maxLineChars: options.maxLineChars, cutNote: '... [line cut]', budget: Infinity })
  const end = start + view.shown
  recordRead(ctx.sessionId, checked.path, { mtimeMs: file.mtimeMs, hash: hashBytes(file.bytes), whole: start === 0 && end >= view.total })
  const head = `The user mentioned @${e.mention}: the contents of ${e.path}`
  if (view.total === 0) return { type: 'file', context: [`${head}: the file is empty.`] }
  if (view.shown === 0) return { type: 'file', context: [`${head}: the file has ${view.total} lines, fewer than the line ${start + 1} the mention starts at.`] }
  const range = start > 0 || end < view.total ? `, lines ${start + 1}-${end} of ${view.total}` : ''
  const more = end < view.total ? `\n\n(${view.total - end} more lines; read on with the Read tool from line ${end + 1}.)` : ''
  return { type: 'file', context: [`${head}${range}, numbered like cat -n:\n${view.numbered}${more}`] }
}

async function image(e: PromptMentionInput, bytes: Buffer, ctx: MentionContext): Promise<PromptMentionResult> {
  const out = await readImage(bytes, e.path)
  const images = (out.content ?? []).filter((b): b is ImageBlockParam => b.type === 'image')
  if (out.isError || images.length === 0) {
    ctx.warn(`${named(e)}: not attached: ${out.text ?? `${e.path} is not a readable image`}`)
    return { type: null }
  }
  return { type: 'file', context: [`The user mentioned @${e.mention}: ${out.text}; the image follows.`], images }
}

/** The mention as a warning names it: with the file and line it was written in, when not in the prompt itself. */
const named = (e: PromptMentionInput) => `@${e.mention}${e.from ? ` (in ${e.from})` : ''}`

async function listing(e: PromptMentionInput, dir: string, max: number): Promise<string> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
  const names = entries.map((d) => (d.isDirectory() ? `${d.name}/` : d.name)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const shown = names.slice(0, max).map((n) => `- ${n}`)
  if (names.length > max) shown.push(`- ... and ${names.length - max} more`)
  const body = names.length === 0 ? '(empty)' : shown.join('\n')
  return `The user mentioned the directory @${e.mention}: the entries of ${e.path}:\n${body}`
}
