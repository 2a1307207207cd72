import { z } from 'zod'
import { outputShape } from '../_shared/tool-output.js'

// What Glob reports to hooks as tool_response (spec settings-hooks §2.31): a replacement carries the paths.
const globResult = () => z.looseObject({
  filenames: z.array(z.string()),
  truncated: z.boolean().optional(),
})

/** Glob's output: one path a line, as Glob's own results read. */
export const globOutputShape = outputShape(globResult, (r) => {
  if (r.filenames.length === 0) return 'No files found'
  return r.filenames.join('\n') + (r.truncated ? '\n(Results are truncated. Use a more specific path or pattern.)' : '')
})
