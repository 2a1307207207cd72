import { spawn } from 'node:child_process'
import { ModelApiError } from '../../core/model/types.js'

/** How long a helper's key is used before it runs again, unless CLAUDE_CODE_API_KEY_HELPER_TTL_MS says: 5 minutes, as in Claude Code. */
export const DEFAULT_KEY_TTL_MS = 300_000
/** A helper may wait on a person (a single sign-on page), but not for ever. */
export const DEFAULT_HELPER_TIMEOUT_MS = 600_000

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

  private run(): Promise<string> {
    const { command, file } = this.setting
    const fail = (why: string) => new ModelApiError('authentication_failed', `apiKeyHelper (${file}) failed: ${why}`)
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_HELPER_TIMEOUT_MS
    return new Promise((resolve, reject) => {
      // Its own process group, so a timeout ends what the command started too, and its pipes close.
      const child = spawn('/bin/sh', ['-c', command], { cwd: this.options.cwd, env: this.options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
      let stdout = ''
      let stderr = ''
      let timedOut = false
      child.stdout.on('data', (d: Buffer) => { stdout += d })
      child.stderr.on('data', (d: Buffer) => { stderr += d })
      const timer = setTimeout(() => {
        timedOut = true
        try { process.kill(-child.pid!, 'SIGKILL') } catch { /* already gone */ }
      }, timeoutMs)
      child.on('error', (err) => { clearTimeout(timer); reject(fail(err.message)) })
      child.on('close', (code, signal) => {
        clearTimeout(timer)
        const key = stdout.trim()
        if (timedOut) reject(fail(`did not finish within ${timeoutMs / 1000} s`))
        else if (code !== 0) reject(fail(`exited ${code ?? signal}${stderr.trim() ? `: ${stderr.trim()}` : ''}`))
        else if (key === '') reject(fail('printed no key'))
        else resolve(key)
      })
    })
  }
}
