import { z } from 'zod'
import { outputShape } from '../_shared/tool-output.js'

// What Bash reports to hooks as tool_response (spec §2.31); a replacement must carry the two streams.
const bashResult = () => z.looseObject({
  stdout: z.string(),
  stderr: z.string(),
  interrupted: z.boolean().optional(),
  isImage: z.boolean().optional(),
  exitCode: z.number().int().nullable().optional(),
})

/** Bash's output: a failing exit code first, then its streams, as a command's own result reads. */
export const bashOutputShape = outputShape(bashResult, (r) => {
  const body = [r.stdout.replace(/\n+$/, ''), r.stderr.replace(/\n+$/, '')].filter((s) => s !== '').join('\n')
  const lead = !r.interrupted && typeof r.exitCode === 'number' && r.exitCode !== 0 ? `Exit code ${r.exitCode}` : ''
  const notes = r.interrupted ? ['Command was interrupted.'] : []
  return [lead, body || (lead || notes.length > 0 ? '' : '(Bash completed with no output)'), ...notes].filter((s) => s !== '').join('\n')
})
