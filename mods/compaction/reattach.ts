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
    return text.length <= max ? text : `${text.slice(0, max)}\n... [truncated: ${(text.length - max).toLocaleString('en-US')} more characters; Read the file for the rest]`
  } catch {
    return undefined
  }
}

export async function memoryText($: ModApi, limits: ReattachLimits): Promise<string | undefined> {
  const memory = $.capability.use('memory')
  const loaded = memory?.loaded()
  if (!loaded) return undefined
  // What the session started with: the files read at start and what they import (an import a
  // tool's touch brought in has a trigger, and comes back with that touch).
  const startup = loaded.filter((l) => l.load_reason === 'session_start' || (l.load_reason === 'include' && !l.trigger_file_path))
  const paths = [...new Set(startup.map((l) => l.file_path))]
  const parts: string[] = []
  for (const path of paths) {
    const text = await readCapped(path, limits.memoryChars)
    if (text !== undefined && text.trim() !== '') parts.push(`Contents of ${path}:\n\n${text}`)
  }
  // The auto memory's index too, as it reads now and cut as at start (spec loop-and-sdk §3.9 step 4).
  const index = await memory?.autoMemory()?.index()
  if (index) parts.push(`Contents of ${index.path} (your auto memory's index):\n\n${index.content}`)
  if (parts.length === 0) return undefined
  return ['# claudeMd', 'The memory files below (reloaded after compaction) hold standing instructions from the user and the project. Follow them.', ...parts].join('\n\n')
}

export function todoText($: ModApi): string | undefined {
  const todos = $.capability.use('todo')?.todos()
  if (!todos || todos.length === 0) return undefined
  const rows = todos.map((t) => `- [${t.status}] ${t.content}`)
  return ['The task list (TodoWrite) as it stands:', ...rows].join('\n')
}

// Spec loop-and-sdk §3.9: each skill's first 5,000 tokens, 25,000 in all (at ~4 characters a token).
const SKILL_CHARS = 20_000
const SKILLS_TOTAL_CHARS = 100_000

/**
 * The instructions of the skills the conversation ran, the latest first, within the caps: the
 * summary would keep what a skill was for, not the steps it laid down. One whose text the kept
 * tail still holds is not repeated.
 */
export function skillTexts($: ModApi, tailText: string): string[] {
  const skills = $.capability.use('commands')?.invokedSkills($.session.id() as string) ?? []
  const out: string[] = []
  let room = SKILLS_TOTAL_CHARS
  for (const { name, text } of skills) {
    if (room <= 0) break
    if (text.trim() === '' || tailText.includes(text.slice(0, 200))) continue
    const cap = Math.min(SKILL_CHARS, room)
    const kept = text.length <= cap ? text : `${text.slice(0, cap)}\n... [cut: ${(text.length - cap).toLocaleString('en-US')} more characters of the skill]`
    room -= Math.min(text.length, cap)
    out.push(`The skill "${name}" was run earlier in this session; its instructions still apply:\n\n${kept}`)
  }
  return out
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
