import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { sessionDirOf } from '../../core/session/paths.js'

export interface BudgetRule {
  /** Characters a result may have before it goes to a file. */
  limit: number
  previewChars: number
}

/** Where a session's large results go: `<session dir>/tool-results/`, beside its transcript. */
export function toolResultsDir(transcriptPath: string): string {
  return join(sessionDirOf(transcriptPath), 'tool-results')
}

/** A file name from a tool_use id, which the API makes of [A-Za-z0-9_-], kept safe whatever it holds. */
const fileName = (toolUseId: string) => `${toolUseId.replace(/[^A-Za-z0-9_-]/g, '_') || 'result'}.txt`

/**
 * Writes a result past its limit to `<dir>/<tool_use_id>.txt` and returns what the model reads
 * instead: the size, the path (it can Read or Grep the file) and the head of the output.
 */
export async function persistResult(dir: string, toolUseId: string, text: string, rule: BudgetRule): Promise<string> {
  await mkdir(dir, { recursive: true })
  const path = join(dir, fileName(toolUseId))
  await writeFile(path, text, 'utf8')
  const preview = text.slice(0, rule.previewChars)
  return [
    '<persisted-output>',
    `Output too large (${text.length.toLocaleString('en-US')} characters, over the ${rule.limit.toLocaleString('en-US')}-character limit). The full output was saved to: ${path}`,
    `Read or Grep that file for the parts you need. The first ${preview.length.toLocaleString('en-US')} characters:`,
    '',
    preview,
    text.length > preview.length ? '…' : '',
    '</persisted-output>',
  ].join('\n')
}
