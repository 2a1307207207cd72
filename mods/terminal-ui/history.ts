import { appendFile, mkdir, open, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { encodeCwd, modloopHome } from '../transcripts/store/paths.js'

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
  // After a line torn by a crash, the entry starts a line of its own: glued on, it would be lost too.
  const start = (await endsTorn(file)) ? '\n' : ''
  await appendFile(file, `${start}${JSON.stringify(entry)}\n`)
}

async function endsTorn(file: string): Promise<boolean> {
  const handle = await open(file, 'r').catch(() => undefined)
  if (!handle) return false
  try {
    const { size } = await handle.stat()
    if (size === 0) return false
    const last = Buffer.alloc(1)
    await handle.read(last, 0, 1, size - 1)
    return last[0] !== 0x0a
  } finally {
    await handle.close()
  }
}
