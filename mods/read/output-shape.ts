import { z } from 'zod'
import { outputShape } from '../_shared/tool-output.js'
import { numberLines, splitLines } from '../_shared/numbered-lines.js'

// What Read reports to hooks as tool_response (spec settings-hooks §2.31): a replacement carries the file's text.
const readResult = () => z.looseObject({
  type: z.literal('text'),
  file: z.looseObject({
    filePath: z.string(),
    content: z.string(),
    startLine: z.number().int().min(1).optional(),
  }),
})

/** Read's output: the content numbered from its start line, as Read's own results read. */
export const readOutputShape = outputShape(readResult, ({ file }) => {
  if (file.content === '') return `<system-reminder>The file ${file.filePath} exists but is empty.</system-reminder>`
  return numberLines(splitLines(file.content), file.startLine ?? 1)
})
