import { randomUUID } from 'node:crypto'
import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { createHooksRunner } from '../hooks-runner/index.js'
import { ModloopError } from '../core/errors.js'
import { loadSources } from '../mods/shell-hooks/sources.js'
import { transcriptPath } from '../mods/transcripts/store/paths.js'

type Env = Record<string, string | undefined>

/**
 * `--worktree` with a WorktreeCreate hook in the settings: the hook makes the directory instead of
 * git (another VCS's checkout), in or out of a git repository as Claude Code runs it, and prints it
 * as its last line. Undefined when no such hook is configured (the settings files and `--settings`).
 * The hook runs before the session exists, so its `session_id` is the `--session-id` given, else a fresh one.
 */
export async function hookWorktree({ cwd, name, env, settings, sessionId }: { cwd: string; name: string; env: Env; settings?: string[]; sessionId?: string }): Promise<string | undefined> {
  const loaded = await loadSources({ cwd, env, settings })
  const runner = createHooksRunner({ config: loaded.config, projectDir: cwd, cwd, env: env as NodeJS.ProcessEnv })
  try {
    if (runner.select('WorktreeCreate', { cwd }).handlers.length === 0) return undefined
    const id = sessionId ?? randomUUID()
    const r = await runner.run('WorktreeCreate', { session_id: id, transcript_path: transcriptPath(cwd, id, env), cwd, hook_event_name: 'WorktreeCreate', name })
    if (r.blocked || !r.worktreePath) throw new ModloopError('MODLOOP_ERR_WORKTREE', `Error creating worktree: WorktreeCreate hook failed: ${r.blockReason ?? 'it printed no worktree path'}`)
    const path = resolve(cwd, r.worktreePath)
    if (!await stat(path).then((s) => s.isDirectory(), () => false)) {
      throw new ModloopError('MODLOOP_ERR_WORKTREE', `worktree directory ${path} does not exist or is not a directory. The path came from a WorktreeCreate hook — the hook must print the directory it created as the last line of its stdout.`)
    }
    return path
  } finally {
    await runner.close()
  }
}
