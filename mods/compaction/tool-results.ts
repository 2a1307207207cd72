import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { toolResultFile } from '../_shared/session-dir.js'

export interface BudgetRule {
  /** Characters a result may have before it goes to a file. */
  limit: number
  previewChars: number
}

/**
 * Writes a result past its limit to `<dir>/<tool_use_id>.txt` and returns what the model reads
 * instead: the size, the path (it can Read or Grep the file) and the head of the output. A tool
 * that cut its own output and saved the whole of it (`savedAt`, Bash's rawOutputPath) is pointed
 * at instead: the file named must hold the full output, not the cut text.
 */
export async function persistResult(dir: string, toolUseId: string, text: string, rule: BudgetRule, savedAt?: string): Promise<string> {
  let path = savedAt
  if (!path) {
    await mkdir(dir, { recursive: true })
    path = join(dir, toolResultFile(toolUseId))
    await writeFile(path, text, 'utf8')
  }
  const preview = text.slice(0, rule.previewChars)
  return [
    '<persisted-output>',
    `Output too large (${text.length.toLocaleString('en-US')} characters, over the ${rule.limit.toLocaleString('en-US')}-character limit). The full output was saved to: ${path}`,
    `Read or Grep that file for the parts you need. The first ${preview.length.toLocaleString('en-US')} characters:`,
    '',
    preview,
    text.length > preview.length ? '...' : '',
    '</persisted-output>',
  ].join('\n')
}
