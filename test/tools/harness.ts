import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openSession } from '../../runtime/open.js'
import { closeSession } from '../../runtime/close.js'
import type { Session } from '../../core/loop/session.js'
import type { ModDefinition } from '../../core/mod/define.js'
import { ModHost } from '../../core/mod/host.js'
import { createScriptedModel } from '../../testing/model/scripted.js'
import { runToolCall, type CallOutcome } from '../../core/tools/pipeline.js'

export interface Tools {
  session: Session
  call(name: string, input: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<CallOutcome>
  close(): Promise<void>
}

let ids = 0

/**
 * A real session with the given tool mods loaded (no model involved): tools are called through
 * the real pipeline, so input validation and the tool.call path are the ones the loop uses. The
 * session runs on a model bound to Read before Write or Edit, whose rules these tests check
 * (unread-change.test.ts covers the newer models that may skip it).
 */
export async function openTools(cwd: string, mods: (ModDefinition | [ModDefinition, Record<string, unknown>])[], env?: Record<string, string>): Promise<Tools> {
  const host = new ModHost({ strict: true })
  for (const m of mods) {
    const [def, options] = Array.isArray(m) ? m : [m, {}]
    await host.add(def as ModDefinition, { options })
  }
  const session = await openSession({ host, bare: true, cwd, model: 'claude-sonnet-4-5', ...(env ? { env: { ...process.env, ...env } } : {}), modelProvider: createScriptedModel([{ reply: 'unused' }]) })
  return {
    session,
    call: (name, input, options = {}) => runToolCall(
      { bus: host.bus, tools: session.tools, cwd: session.cwd, sessionId: session.id, signal: options.signal ?? new AbortController().signal },
      { id: `toolu_test_${++ids}`, name, input },
    ),
    close: () => closeSession(session),
  }
}

/** A fresh temp directory (real path, so symlinked /tmp does not confuse path checks). */
export async function tempDir(prefix = 'modloop-tools-'): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)))
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}

/** True while any process of the group exists; init may take a moment to reap orphans. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH'
  }
}

/** The pids whose parent is `pid` (and whose command line starts with `prefix`): what a process has spawned that still runs or waits. */
export function childrenOf(pid: number, prefix = ''): Set<number> {
  const out = new Set<number>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      // The fields after the command's name (which may hold spaces) start at its closing paren.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== pid) continue
      if (!prefix || readFileSync(`/proc/${name}/cmdline`, 'utf8').startsWith(prefix)) out.add(Number(name))
    } catch {
      // gone meanwhile
    }
  }
  return out
}

/**
 * A mod that notes, as each tool call begins, which processes this one has as children: a spare
 * started ahead is among them, a process spawned for the call is not.
 */
export function watchCallChildren(): { mod: ModDefinition; atCall: Set<number>[] } {
  const atCall: Set<number>[] = []
  const mod: ModDefinition = {
    name: 'watch-calls',
    register(on) {
      on('tool.call', ($, e, next) => {
        atCall.push(childrenOf(process.pid))
        return next(e)
      })
    },
  }
  return { mod, atCall }
}
