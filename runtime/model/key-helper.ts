import { spawnHook } from '../../hooks-runner/spawn-hook.js'
import { ModelApiError } from '../../core/model/types.js'

/** How long a helper's key is used before it runs again, unless CLAUDE_CODE_API_KEY_HELPER_TTL_MS says: 5 minutes, as in Claude Code. */
export const DEFAULT_KEY_TTL_MS = 300_000
/** A helper may wait on a person (a single sign-on page), but not for ever. */
export const DEFAULT_HELPER_TIMEOUT_MS = 600_000
// A helper told to stop gets this long before SIGKILL; a grandchild holding its pipes, this long after it exits.
const KILL_GRACE_MS = 1_000
const PIPE_GRACE_MS = 200

/** The `apiKeyHelper` setting that applies, and the settings file it came from. */
export interface KeyHelperSetting {
  command: string
  file: string
}

export interface KeyHelperOptions {
  cwd: string
  env: Record<string, string | undefined>
  timeoutMs?: number
}

/**
 * Runs the `apiKeyHelper` command (`sh -c`, in the session's folder and environment) for the key
 * of the next request. The key is kept for the TTL; requests made while it runs share that run;
 * a 401 answer expires it, so the retry runs the helper again.
 */
export class KeyHelper {
  private cached: { key: string; at: number } | undefined
  private running: Promise<string> | undefined
  private readonly ttlMs: number

  constructor(readonly setting: KeyHelperSetting, private readonly options: KeyHelperOptions) {
    const ttl = Number(options.env.CLAUDE_CODE_API_KEY_HELPER_TTL_MS)
    this.ttlMs = options.env.CLAUDE_CODE_API_KEY_HELPER_TTL_MS && Number.isFinite(ttl) && ttl >= 0 ? ttl : DEFAULT_KEY_TTL_MS
  }

  key(): Promise<string> {
    if (this.cached && Date.now() - this.cached.at < this.ttlMs) return Promise.resolve(this.cached.key)
    this.running ??= this.run().then((key) => {
      this.cached = { key, at: Date.now() }
      return key
    }).finally(() => { this.running = undefined })
    return this.running
  }

  /** The server refused the key: the next request asks the helper for a new one. */
  expire(): void {
    this.cached = undefined
  }

  /** Runs the command as settings hooks run (hooks-runner's spawnHook): its own process group, killed whole at the timeout. */
  private async run(): Promise<string> {
    const { command, file } = this.setting
    const fail = (why: string) => new ModelApiError('authentication_failed', `apiKeyHelper (${file}) failed: ${why}`)
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_HELPER_TIMEOUT_MS
    const run = await spawnHook({ file: '/bin/sh', args: ['-c', command], cwd: this.options.cwd, env: this.options.env, stdin: '', timeoutMs, killGraceMs: KILL_GRACE_MS, pipeGraceMs: PIPE_GRACE_MS })
    if (run.status === 'launch_error') throw fail(run.launchError ?? 'it could not start')
    if (run.status === 'timeout') throw fail(`did not finish within ${timeoutMs / 1000} s`)
    if (run.exitCode !== 0) throw fail(`exited ${run.exitCode ?? run.signal}${run.stderr.trim() ? `: ${run.stderr.trim()}` : ''}`)
    const key = run.stdout.trim()
    if (key === '') throw fail('printed no key')
    return key
  }
}
