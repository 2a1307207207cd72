import { mkdir, readFile, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { z } from 'zod'
import type { ToolContext, ToolOutput } from '../../core/tools/tool.js'
import { checkPath } from '../_shared/allowed-paths.js'
import { hunksOf, linesChangedBy, snippetOf, type Hunk } from '../_shared/patch.js'
import { changedSinceRead, hashBytes, lastRead, recordRead, refusalToChange } from '../_shared/read-state.js'
import { failure } from '../_shared/register-tool.js'
import { readFirstAlways, type UnreadCheck } from '../_shared/unread-change.js'
import { decodeText, DEFAULT_FORMAT, encodeText, fitsEncoding, looksBinary, writeFileAtomic, type TextFormat } from '../_shared/text-file.js'
import { applyEdit } from './apply-edit.js'
import { builtinInput } from '../_shared/builtin-input.js'

export const editInput = builtinInput('Edit', () => z.object({
  file_path: z.string().describe('The absolute path of the file to change'),
  old_string: z.string().describe('The exact text to replace'),
  new_string: z.string().describe('The text to put in its place (must differ from old_string)'),
  replace_all: z.boolean().optional().default(false).describe('Replace every occurrence of old_string (default false)'),
}))
export type EditInput = z.output<ReturnType<typeof editInput>>

export const EDIT_DESCRIPTION = `Replaces exact text in a file.
- The file must have been read with Read in this session. If it has changed on disk since, old_string must still match the current file.
- old_string is matched character for character, whitespace and indentation included. Copy it from Read's output without the line-number prefix (the number, then a tab).
- old_string must occur exactly once: include enough surrounding lines to make it unique, or set replace_all to change every occurrence (e.g. to rename a variable).
- An empty old_string creates a new file (or fills an empty one) with new_string.
- Line endings and encoding of the file are kept.
- A Jupyter notebook (.ipynb) is changed with NotebookEdit, not Edit.`

const STALE_NOTE = ' It had changed on disk since it was read; the parts not shown here may differ from what you saw, so Read it before edits that depend on them.'

export async function editTool(
  input: EditInput, ctx: ToolContext, extraDirs: readonly string[], anywhere = false, mayChangeUnread: UnreadCheck = readFirstAlways,
): Promise<ToolOutput> {
  const checked = await checkPath(input.file_path, ctx.cwd, extraDirs, { anywhere })
  if (!checked.ok) return failure(checked.message)
  const shown = input.file_path
  if (input.old_string === input.new_string) return failure('old_string and new_string are the same, so there is nothing to change.')
  const info = await stat(checked.path).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? undefined : err))
  if (info instanceof Error) return failure(`Cannot edit ${shown}: ${info.message}`)
  if (info && !info.isFile()) return failure(`${shown} is ${info.isDirectory() ? 'a directory' : 'not a regular file'}; Edit changes files only.`)

  let original = ''
  let format: TextFormat = DEFAULT_FORMAT
  // Changed on disk since read: the edit still applies where old_string matches as it did (spec
  // loop-and-sdk, Edit), and the model is told the rest of the file may differ from what it saw.
  let stale = false
  // Changed without a Read (a model that may): the file stays unread, so a later Write is not
  // taken for one over a partial read.
  let unread = false
  if (!info) {
    if (input.old_string !== '') return failure(`File does not exist: ${shown}. To create it, use Write, or Edit with an empty old_string.`)
    await mkdir(dirname(checked.path), { recursive: true })
  } else {
    // A notebook's text is JSON: a string replaced in it can break the cells, which NotebookEdit keeps whole.
    if (shown.endsWith('.ipynb')) return failure(`${shown} is a Jupyter notebook; change its cells with NotebookEdit.`)
    const bytes = await readFile(checked.path)
    unread = lastRead(ctx.sessionId, checked.path) === undefined && (await mayChangeUnread(checked.path, ctx))
    const refusal = unread ? undefined : refusalToChange(ctx.sessionId, checked.path, { mtimeMs: info.mtimeMs, bytes }, shown, { changed: 'allow' })
    if (refusal) return failure(refusal)
    stale = changedSinceRead(ctx.sessionId, checked.path, { mtimeMs: info.mtimeMs, bytes })
    if (looksBinary(bytes)) return failure(`${shown} is a binary file; Edit changes text files only.`)
    ;({ text: original, format } = decodeText(bytes))
    if (input.old_string === '' && original !== '') {
      return failure(`old_string is empty, which only creates a file or fills an empty one, but ${shown} has content. Pass the text to replace.`)
    }
  }

  let updated: string
  let count = 1
  if (input.old_string === '') updated = input.new_string
  else {
    const edit = applyEdit(original, input.old_string, input.new_string, input.replace_all)
    if (!edit.ok && stale) {
      return failure(`${shown} has changed on disk since it was read (by the user or another program), and old_string ${edit.reason === 'missing' ? 'is not in it' : `now occurs ${edit.count} times`}. Read it again before changing it.`)
    }
    if (!edit.ok) {
      return failure(edit.reason === 'missing'
        ? `old_string was not found in ${shown}. It must match the file exactly, whitespace and indentation included; Read the file again to see its current text.`
        : `old_string occurs ${edit.count} times in ${shown}. Include more surrounding lines to make it unique, or set replace_all to true to change all ${edit.count}.`)
    }
    updated = edit.text
    count = edit.count
  }

  if (!fitsEncoding(updated, format)) {
    return failure(`${shown} is not UTF-8 (its text is kept as Latin-1, one byte a character), and new_string has characters Latin-1 cannot hold. Write them as Latin-1 characters, or convert the file to UTF-8 first.`)
  }
  const data = encodeText(updated, format)
  await writeFileAtomic(checked.path, data)
  const written = await stat(checked.path)
  // The model now knows the file as well as before the edit: a partial read stays partial for Write,
  // and so does a file changed by someone else, whose other changes the model has not seen.
  const whole = info ? !stale && (lastRead(ctx.sessionId, checked.path)?.whole ?? false) : true
  if (!unread) recordRead(ctx.sessionId, checked.path, { mtimeMs: written.mtimeMs, hash: hashBytes(data), whole })

  const hunks: Hunk[] = await hunksOf(shown, original, updated)
  return {
    result: {
      filePath: shown, oldString: input.old_string, newString: input.new_string, originalFile: info ? original : null,
      structuredPatch: hunks, userModified: false, replaceAll: input.replace_all,
    },
    text: `${info ? 'Edited' : 'Created'} ${shown}${count > 1 ? ` (${count} replacements)` : ''}.${stale ? STALE_NOTE : ''} The changed part now reads (cat -n):\n${snippetOf(hunks)}`,
    linesChanged: linesChangedBy(hunks),
  }
}
