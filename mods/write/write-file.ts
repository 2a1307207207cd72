import { mkdir, readFile, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { z } from 'zod'
import type { ToolContext, ToolOutput } from '../../core/tools/tool.js'
import { checkPath } from '../_shared/allowed-paths.js'
import { countLines } from '../_shared/numbered-lines.js'
import { hunksOf, linesChangedBy, linesOfNewFile, snippetOf } from '../_shared/patch.js'
import { hashBytes, lastRead, recordRead, refusalToChange } from '../_shared/read-state.js'
import { failure } from '../_shared/register-tool.js'
import { readFirstAlways, type UnreadCheck } from '../_shared/unread-change.js'
import { decodeText, DEFAULT_FORMAT, encodeText, fitsEncoding, looksBinary, writeFileAtomic, type TextFormat } from '../_shared/text-file.js'
import { builtinInput } from '../_shared/builtin-input.js'

export const writeInput = builtinInput('Write', () => z.object({
  file_path: z.string().describe('The absolute path of the file to write'),
  content: z.string().describe('The whole new content of the file'),
}))
export type WriteInput = z.output<ReturnType<typeof writeInput>>

export const WRITE_DESCRIPTION = `Writes a file, replacing it if it exists.
- file_path is absolute, inside the session's working directories; missing parent directories are created.
- An existing file must have been read whole with Read in this session first, and must not have changed since.
- To change part of an existing file, prefer Edit: it sends only the change.
- Do not create documentation or README files unless asked to.`

export async function writeTool(
  input: WriteInput, ctx: ToolContext, extraDirs: readonly string[], anywhere = false, mayChangeUnread: UnreadCheck = readFirstAlways,
): Promise<ToolOutput> {
  const checked = await checkPath(input.file_path, ctx.cwd, extraDirs, { anywhere })
  if (!checked.ok) return failure(checked.message)
  const shown = input.file_path
  const info = await stat(checked.path).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? undefined : err))
  if (info instanceof Error) return failure(`Cannot write ${shown}: ${info.message}`)
  if (info && !info.isFile()) return failure(`${shown} exists and is ${info.isDirectory() ? 'a directory' : 'not a regular file'}; Write replaces files only.`)

  let original: string | null = null
  let format: TextFormat = DEFAULT_FORMAT
  let content = input.content
  if (info) {
    const bytes = await readFile(checked.path)
    const unread = lastRead(ctx.sessionId, checked.path) === undefined && (await mayChangeUnread(checked.path, ctx))
    const refusal = unread ? undefined : refusalToChange(ctx.sessionId, checked.path, { mtimeMs: info.mtimeMs, bytes }, shown, { whole: true })
    if (refusal) return failure(refusal)
    if (!looksBinary(bytes)) {
      const decoded = decodeText(bytes)
      original = decoded.text
      format = decoded.format
      // A Latin-1 file given text Latin-1 cannot hold becomes UTF-8: Write replaces all of it, so nothing is mixed.
      if (!fitsEncoding(content, format)) format = { ...format, encoding: 'utf8' }
      // The model reads lines without their CR, so LF content for a CRLF file means "keep CRLF".
      if (format.lineEnding === '\r\n' && !content.includes('\r')) content = content.replace(/\n/g, '\r\n')
    }
  }

  await mkdir(dirname(checked.path), { recursive: true })
  const data = encodeText(content, format)
  await writeFileAtomic(checked.path, data)
  const written = await stat(checked.path)
  recordRead(ctx.sessionId, checked.path, { mtimeMs: written.mtimeMs, hash: hashBytes(data), whole: true })

  const lines = countLines(content)
  if (!info) {
    return {
      result: { type: 'create', filePath: shown, content: input.content, structuredPatch: [], originalFile: null },
      text: `Created ${shown} (${lines} line${lines === 1 ? '' : 's'}).`,
      linesChanged: linesOfNewFile(input.content),
    }
  }
  const hunks = await hunksOf(shown, original ?? '', content)
  const snippet = snippetOf(hunks)
  return {
    result: { type: 'update', filePath: shown, content: input.content, structuredPatch: hunks, originalFile: original },
    text: `Updated ${shown} (${lines} line${lines === 1 ? '' : 's'}).${snippet ? ` The changed parts now read (cat -n):\n${snippet}` : ' The content is unchanged.'}`,
    linesChanged: linesChangedBy(hunks),
  }
}
