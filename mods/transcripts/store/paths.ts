import { nodeCrypto } from '../../../core/random.js'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

/**
 * Where sessions live: `<home>/projects/<encoded cwd>/<session-id>.jsonl`, with subagent
 * transcripts beside it in `<session-id>/subagents/`. `<home>` is `MODLOOP_HOME`, else
 * `~/.modloop`. The layout follows Claude Code's so that tools which walk one can walk the other.
 */

type Env = Record<string, string | undefined>

const MAX_DIR_NAME = 200

/** The option env wins, then the process's: the home is a machine-level setting a caller may override. */
export function modloopHome(env?: Env): string {
  const set = env?.MODLOOP_HOME ?? process.env.MODLOOP_HOME
  return set ? resolve(set) : join(homedir(), '.modloop')
}

export function projectsRoot(env?: Env): string {
  return join(modloopHome(env), 'projects')
}

/** Every non-alphanumeric character becomes `-`; a name past 200 characters is cut and given a hash so it stays unique. */
export function encodeCwd(cwd: string): string {
  const abs = resolve(cwd)
  const name = abs.replace(/[^A-Za-z0-9]/g, '-')
  if (name.length <= MAX_DIR_NAME) return name
  return `${name.slice(0, MAX_DIR_NAME)}-${nodeCrypto().createHash('sha256').update(abs).digest('hex').slice(0, 12)}`
}

export function projectDir(cwd: string, env?: Env): string {
  return join(projectsRoot(env), encodeCwd(cwd))
}

export function transcriptPath(cwd: string, sessionId: string, env?: Env): string {
  return join(projectDir(cwd, env), `${sessionId}.jsonl`)
}

/** The session's own directory, beside its transcript: `<dir>/<session-id>/` (subagents, tool results, checkpoints, hook files). */
export function sessionDirOf(sessionPath: string): string {
  return sessionPath.replace(/\.jsonl$/, '')
}

/** The transcript of one subagent, beside its session's: `<dir>/<session-id>/subagents/agent-<agentId>.jsonl`. */
export function subagentTranscriptPath(sessionPath: string, agentId: string): string {
  return join(sessionDirOf(sessionPath), 'subagents', `agent-${agentId}.jsonl`)
}

/** `<dir>/<session>.jsonl` → `<dir>/<session>.trace.jsonl`: what mods changed or decided, beside the transcript (`modloop why`). */
export function traceFileOf(sessionPath: string): string {
  return `${sessionDirOf(sessionPath)}.trace.jsonl`
}

export function lockPathOf(sessionPath: string): string {
  return sessionPath.replace(/\.jsonl$/, '.lock')
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const isSessionId = (id: string): boolean => UUID.test(id)
