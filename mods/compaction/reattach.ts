import { readFile } from 'node:fs/promises'
import { isAbsolute, resolve } from 'node:path'
import type { ModApi } from '../../core/mod/api.js'
import { looksBinary } from '../_shared/text-file.js'

/**
 * What the summary alone would lose, read fresh after compaction: the memory files loaded at
 * session start (reloaded from disk; nested ones come back when a tool touches their directory
 * again), the task list, and the files Read most recently (their current content).
 */


export interface ReattachLimits {
  files: number
  fileChars: number
  memoryChars: number
}

// Read shows these as pictures: their bytes read as text would be noise (a small PDF may hold no NUL byte).
const PICTURES = /\.(png|jpe?g|gif|webp|pdf)$/i

async function readCapped(path: string, max: number): Promise<string | undefined> {
  try {
    const bytes = await readFile(path)
    if (PICTURES.test(path) || looksBinary(bytes)) return undefined
    const text = bytes.toString('utf8')
    return text.length <= max ? text : `${text.slice(0, max)}\n… [truncated: ${(text.length - max).toLocaleString('en-US')} more characters; Read the file for the rest]`
  } catch {
    return undefined
  }
}

export async function memoryText($: ModApi, limits: ReattachLimits): Promise<string | undefined> {
  const loaded = $.capability.use('memory')?.loaded()
  if (!loaded) return undefined
  const paths = [...new Set(loaded.filter((l) => l.load_reason === 'session_start').map((l) => l.file_path))]
  const parts: string[] = []
  for (const path of paths) {
    const text = await readCapped(path, limits.memoryChars)
    if (text !== undefined && text.trim() !== '') parts.push(`Contents of ${path}:\n\n${text}`)
  }
  if (parts.length === 0) return undefined
  return ['# claudeMd', 'The memory files below (reloaded after compaction) hold standing instructions from the user and the project. Follow them.', ...parts].join('\n\n')
}

export function todoText($: ModApi): string | undefined {
  const todos = $.capability.use('todo')?.todos()
  if (!todos || todos.length === 0) return undefined
  const rows = todos.map((t) => `- [${t.status}] ${t.content}`)
  return ['The task list (TodoWrite) as it stands:', ...rows].join('\n')
}

/** Up to `limits.files` recently read files that the kept tail does not already show. */
export async function fileTexts(cwd: string, paths: readonly string[], shown: ReadonlySet<string>, limits: ReattachLimits): Promise<string[]> {
  const out: string[] = []
  for (const p of paths) {
    if (out.length >= limits.files) break
    if (shown.has(p)) continue
    const abs = isAbsolute(p) ? p : resolve(cwd, p)
    const text = await readCapped(abs, limits.fileChars)
    if (text !== undefined) out.push(`A file read before compaction, as it is now: ${abs}\n\n${text}`)
  }
  return out
}
