import type { ToolOutput } from '../../core/tools/tool.js'
import { checkPath } from '../_shared/allowed-paths.js'
import { countLines, lineWindow } from '../_shared/numbered-lines.js'
import { hunksOf, snippetOf } from '../_shared/patch.js'
import { hashBytes, lastRead, recordRead, refusalToChange } from '../_shared/read-state.js'
import { failure } from '../_shared/register-tool.js'
import type { ToolDelegate } from '../_shared/tool-delegate.js'
import { readFirstAlways, type UnreadCheck } from '../_shared/unread-change.js'
import { applyEdit } from '../edit/apply-edit.js'
import { DEFAULT_LINES, MAX_LINE_CHARS, readsAsMedia } from '../read/read-file.js'
import type { Editor } from './editor.js'
import { describeError } from '../../core/errors.js'

type Files = Required<Pick<Editor, 'readTextFile' | 'writeTextFile'>>

const MAX_OUTPUT_CHARS = 100_000
const CUT_NOTE = `... [line cut at ${MAX_LINE_CHARS} characters]`
// An editor buffer has no mtime: a value no file has makes refusalToChange compare content alone.
const NO_MTIME = Number.NaN
const str = (v: unknown) => (typeof v === 'string' ? v : '')
const record = (sessionId: string, path: string, text: string, whole: boolean) =>
  recordRead(sessionId, path, { mtimeMs: NO_MTIME, hash: hashBytes(Buffer.from(text)), whole })

/** What the editor holds for `path`: its buffer, or undefined when it has no such file. */
async function current(files: Pick<Files, 'readTextFile'>, path: string): Promise<{ text?: string; error?: string }> {
  try {
    return { text: await files.readTextFile(path) }
  } catch (err) {
    const message = describeError(err)
    // Editors answer a missing file with "resource not found" (-32002) or an ENOENT message.
    return /not.?found|ENOENT|no such file/i.test(message) || (err as { code?: unknown }).code === -32002 ? {} : { error: message }
  }
}

/** Read through the editor (its unsaved changes included), numbered as the local Read numbers it. */
export const editorRead = (files: Files): ToolDelegate => async (input, ctx, dirs) => {
  const shown = str(input.file_path)
  const checked = await checkPath(shown, ctx.cwd, dirs)
  if (!checked.ok) return failure(checked.message)
  // An image, a PDF or a notebook is read from disk by Read itself: as text it would be noise.
  if (readsAsMedia(checked.path)) return undefined
  const { text, error } = await current(files, checked.path)
  if (error) return failure(`Cannot read ${shown} in the editor: ${error}`)
  if (text === undefined) return failure(`File does not exist: ${shown}.`)
  const start = typeof input.offset === 'number' && input.offset > 0 ? input.offset - 1 : 0
  const limit = typeof input.limit === 'number' ? input.limit : DEFAULT_LINES
  const view = lineWindow(text, { start, limit, maxLineChars: MAX_LINE_CHARS, cutNote: CUT_NOTE, budget: MAX_OUTPUT_CHARS })
  const result = { type: 'text', file: { filePath: shown, content: view.content, numLines: view.shown, startLine: start + 1, totalLines: view.total } }
  if (view.total === 0) {
    record(ctx.sessionId, checked.path, text, true)
    return { result, text: `<system-reminder>The file ${shown} exists but is empty.</system-reminder>` }
  }
  const end = start + view.shown
  if (view.shown > 0) record(ctx.sessionId, checked.path, text, start === 0 && end >= view.total)
  const more = end < view.total ? `\n\n<system-reminder>Showing lines ${start + 1}-${end} of ${view.total}. Read on with offset ${end + 1}.</system-reminder>` : ''
  return { result, text: view.shown === 0 ? `<system-reminder>The file ${shown} has ${view.total} lines, fewer than the offset ${start + 1}.</system-reminder>` : view.numbered + more }
}

/** Write through the editor, over a buffer read whole in this session and unchanged since. */
export const editorWrite = (files: Files, mayChangeUnread: UnreadCheck = readFirstAlways): ToolDelegate => async (input, ctx, dirs) => {
  const shown = str(input.file_path)
  const content = str(input.content)
  const checked = await checkPath(shown, ctx.cwd, dirs)
  if (!checked.ok) return failure(checked.message)
  const { text: original, error } = await current(files, checked.path)
  if (error) return failure(`Cannot write ${shown} in the editor: ${error}`)
  const unread = original !== undefined && lastRead(ctx.sessionId, checked.path) === undefined && (await mayChangeUnread(checked.path, ctx))
  if (original !== undefined && !unread) {
    const refusal = refusalToChange(ctx.sessionId, checked.path, { mtimeMs: NO_MTIME, bytes: Buffer.from(original) }, shown, { whole: true })
    if (refusal) return failure(refusal)
  }
  await files.writeTextFile(checked.path, content)
  record(ctx.sessionId, checked.path, content, true)
  const lines = countLines(content)
  if (original === undefined) {
    return { result: { type: 'create', filePath: shown, content, structuredPatch: [], originalFile: null }, text: `Created ${shown} (${lines} line${lines === 1 ? '' : 's'}).` }
  }
  const hunks = await hunksOf(shown, original, content)
  const snippet = snippetOf(hunks)
  return {
    result: { type: 'update', filePath: shown, content, structuredPatch: hunks, originalFile: original },
    text: `Updated ${shown} (${lines} line${lines === 1 ? '' : 's'}).${snippet ? ` The changed parts now read (cat -n):\n${snippet}` : ' The content is unchanged.'}`,
  }
}

/** Edit through the editor: the same exact-string replacement as the local Edit, on the editor's buffer. */
export const editorEdit = (files: Files, mayChangeUnread: UnreadCheck = readFirstAlways): ToolDelegate => async (input, ctx, dirs): Promise<ToolOutput> => {
  const shown = str(input.file_path)
  const [oldString, newString, replaceAll] = [str(input.old_string), str(input.new_string), input.replace_all === true]
  const checked = await checkPath(shown, ctx.cwd, dirs)
  if (!checked.ok) return failure(checked.message)
  if (oldString === newString) return failure('old_string and new_string are the same, so there is nothing to change.')
  const { text: original, error } = await current(files, checked.path)
  if (error) return failure(`Cannot edit ${shown} in the editor: ${error}`)
  let updated = newString
  let count = 1
  // Changed without a Read (a model that may): the buffer stays unread, as with the local Edit.
  let unread = false
  if (original === undefined) {
    if (oldString !== '') return failure(`File does not exist: ${shown}. To create it, use Write, or Edit with an empty old_string.`)
  } else {
    if (shown.endsWith('.ipynb')) return failure(`${shown} is a Jupyter notebook; change its cells with NotebookEdit.`)
    unread = lastRead(ctx.sessionId, checked.path) === undefined && (await mayChangeUnread(checked.path, ctx))
    const refusal = unread ? undefined : refusalToChange(ctx.sessionId, checked.path, { mtimeMs: NO_MTIME, bytes: Buffer.from(original) }, shown)
    if (refusal) return failure(refusal)
    if (oldString === '' && original !== '') return failure(`old_string is empty, which only creates a file or fills an empty one, but ${shown} has content. Pass the text to replace.`)
    if (oldString !== '') {
      const edit = applyEdit(original, oldString, newString, replaceAll)
      if (!edit.ok) {
        return failure(edit.reason === 'missing'
          ? `old_string was not found in ${shown}. It must match the file exactly, whitespace and indentation included; Read the file again to see its current text.`
          : `old_string occurs ${edit.count} times in ${shown}. Include more surrounding lines to make it unique, or set replace_all to true to change all ${edit.count}.`)
      }
      ;({ text: updated, count } = edit)
    }
  }
  await files.writeTextFile(checked.path, updated)
  if (!unread) record(ctx.sessionId, checked.path, updated, original === undefined || (lastRead(ctx.sessionId, checked.path)?.whole ?? false))
  const hunks = await hunksOf(shown, original ?? '', updated)
  return {
    result: { filePath: shown, oldString, newString, originalFile: original ?? null, structuredPatch: hunks, userModified: false, replaceAll },
    text: `${original === undefined ? 'Created' : 'Edited'} ${shown}${count > 1 ? ` (${count} replacements)` : ''}. The changed part now reads (cat -n):\n${snippetOf(hunks)}`,
  }
}
