import { appendFile, mkdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { encodeCwd, modloopHome } from '../../core/session/paths.js'

const KEEP = 500

/** Prompt history, one JSON string per line, per project: `<MODLOOP_HOME>/history/<encoded cwd>.jsonl`. */
export function historyFile(cwd: string, env: Record<string, string | undefined>): string {
  return join(modloopHome(env), 'history', `${encodeCwd(cwd)}.jsonl`)
}

/** The most recent entries, oldest first; a torn or foreign line is skipped. */
export async function readHistory(file: string): Promise<string[]> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    return []
  }
  const entries: string[] = []
  for (const line of text.split('\n')) {
    if (!line) continue
    try {
      const value: unknown = JSON.parse(line)
      if (typeof value === 'string') entries.push(value)
    } catch {
      // A line cut by a crash: the rest of the history still loads.
    }
  }
  return entries.slice(-KEEP)
}

export async function appendHistory(file: string, entry: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  await appendFile(file, `${JSON.stringify(entry)}\n`)
}
