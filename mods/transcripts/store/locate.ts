import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { ModloopError } from '../../../core/errors.js'
import { isCustomTitle, isPrompt, type TranscriptEntry } from './entry.js'
import { isSessionId, projectDir, projectsRoot } from './paths.js'
import { readTranscript } from './transcript-read.js'

type Env = Record<string, string | undefined>

export interface SessionFile {
  sessionId: string
  path: string
  mtimeMs: number
  size: number
}

/** The sessions of one project directory, most recently active first. */
export async function sessionFiles(dir: string): Promise<SessionFile[]> {
  const names = await readdir(dir).catch(() => [] as string[])
  const files = await Promise.all(names.filter((n) => n.endsWith('.jsonl') && isSessionId(n.slice(0, -6))).map(async (name) => {
    const path = join(dir, name)
    const info = await stat(path).catch(() => undefined)
    return info?.isFile() ? { sessionId: name.slice(0, -6), path, mtimeMs: info.mtimeMs, size: info.size } : undefined
  }))
  return files.filter((f): f is SessionFile => f !== undefined).sort((a, b) => b.mtimeMs - a.mtimeMs)
}

/**
 * Finds a session by id: in the project of `cwd` first, then in every other project (the id
 * must then be found once); or, given what is no id, by the title given to a session of the
 * project of `cwd`. Throws MODLOOP_ERR_SESSION when there is none.
 */
export async function findSession(sessionId: string, cwd: string, env?: Env): Promise<SessionFile> {
  if (!isSessionId(sessionId)) return sessionTitled(sessionId, cwd, env)
  const here = await fileIn(projectDir(cwd, env), sessionId)
  if (here) return here
  const root = projectsRoot(env)
  const projects = await readdir(root).catch(() => [] as string[])
  const found = (await Promise.all(projects.map((p) => fileIn(join(root, p), sessionId)))).filter((f): f is SessionFile => f !== undefined)
  if (found.length === 1) return found[0]!
  if (found.length > 1) throw new ModloopError('MODLOOP_ERR_SESSION', `session ID ${sessionId} is in more than one project (${found.map((f) => f.path).join(', ')}); run from its project directory`, { field: 'resume' })
  throw new ModloopError('MODLOOP_ERR_SESSION', `No conversation found with session ID: ${sessionId}`, { field: 'resume' })
}

/**
 * The most recently active session of the project of `cwd` that took a prompt: a file without one
 * (a session that only ran a command, or one that cannot be read) has nothing to continue.
 */
export async function latestSession(cwd: string, env?: Env): Promise<SessionFile> {
  for (const file of await sessionFiles(projectDir(cwd, env))) {
    const entries = await readTranscript(file.path).then((r) => r.entries, () => [])
    if (entries.some(isPrompt)) return file
  }
  throw new ModloopError('MODLOOP_ERR_SESSION', `No conversation found to continue in ${cwd}`, { field: 'continue' })
}

/**
 * The session of the project of `cwd` whose title (its last `custom-title` line) is `title`,
 * whatever the case, as Claude Code's `--resume <name>`; more than one is refused, naming them.
 */
async function sessionTitled(title: string, cwd: string, env?: Env): Promise<SessionFile> {
  const found = await sessionsTitled(title, cwd, env)
  if (found.length === 1) return found[0]!
  if (found.length > 1) {
    const list = found.map((f) => `  ${f.sessionId}  (modified ${new Date(f.mtimeMs).toISOString()})`).join('\n')
    throw new ModloopError('MODLOOP_ERR_SESSION', `"${title}" is the title of ${found.length} sessions; resume one by its ID:\n${list}`, { field: 'resume' })
  }
  // Stage `title`: the CLI words it as Claude Code's --print does (the terminal never gets here: it searches for the text).
  throw new ModloopError('MODLOOP_ERR_SESSION', `not a session ID (a UUID), nor the title of a session of ${cwd}: "${title}"`, { field: 'resume', stage: 'title' })
}

/** The sessions of the project of `cwd` whose title (the last `custom-title` line) is `title`, whatever the case. */
export async function sessionsTitled(title: string, cwd: string, env?: Env): Promise<SessionFile[]> {
  const wanted = title.toLowerCase()
  const found: SessionFile[] = []
  for (const file of await sessionFiles(projectDir(cwd, env))) {
    const entries = await readTranscript(file.path).then((r) => r.entries, (): TranscriptEntry[] => [])
    if (entries.findLast(isCustomTitle)?.customTitle.toLowerCase() === wanted) found.push(file)
  }
  return found
}

async function fileIn(dir: string, sessionId: string): Promise<SessionFile | undefined> {
  const path = join(dir, `${sessionId}.jsonl`)
  const info = await stat(path).catch(() => undefined)
  return info?.isFile() ? { sessionId, path, mtimeMs: info.mtimeMs, size: info.size } : undefined
}
