import { z } from 'zod'
import type { ToolOutputShape } from '../_shared/tool-output.js'

// What Glob reports to hooks as tool_response (spec settings-hooks §2.31): a replacement carries the paths.
const globResult = z.looseObject({
  filenames: z.array(z.string()),
  truncated: z.boolean().optional(),
})

/** Glob's output: one path a line, as Glob's own results read. */
export const globOutputShape: ToolOutputShape = {
  parse: (value) => {
    const r = globResult.safeParse(value)
    return r.success ? r.data : undefined
  },
  text: (value) => {
    const r = value as z.output<typeof globResult>
    if (r.filenames.length === 0) return 'No files found'
    return r.filenames.join('\n') + (r.truncated ? '\n(Results are truncated. Use a more specific path or pattern.)' : '')
  },
}
