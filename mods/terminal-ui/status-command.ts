import { baseHookEnv } from '../../hooks-runner/hook-env.js'
import { spawnHook, type ProcessRun } from '../../hooks-runner/spawn-hook.js'
import type { StatusLineSetting } from '../_shared/status-line-setting.js'

/** Changes closer together than this run the command once, as Claude Code spaces its runs. */
export const STATUS_DEBOUNCE_MS = 300
/** A command still running after this is ended; a newer change ends it sooner. */
const TIMEOUT_MS = 60_000
// Colours (SGR) pass; any other escape or control character could move the cursor in the live region.
const NOT_SGR = /\u001b\[[0-9;:]*[A-Za-ln-z@`]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[^[\]]|[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f]/g

export interface StatusCommandHooks {
  cwd: string
  /** The session's environment: what settings hooks inherit. */
  env(): Record<string, string | undefined>
  /** The JSON the command reads, as the session is now. */
  input(): Record<string, unknown>
  /** The lines to show; none when the command printed nothing or failed. */
  show(lines: string[]): void
  /** Tells the person that the command failed; called once per session, not at every run. */
  failed(text: string): void
}

/**
 * Runs the `statusLine` command as settings hooks run theirs (`sh -c` in a process group of its
 * own, the hook environment, a timeout that kills the tree), off the keystroke path. Changes are
 * gathered for STATUS_DEBOUNCE_MS, and one run is alive at a time: a change while one runs ends it,
 * since its input is stale. `refreshInterval` runs it again when nothing changed for that long.
 */
export class StatusCommand {
  private debounce: NodeJS.Timeout | undefined
  private every: NodeJS.Timeout | undefined
  private running: AbortController | undefined
  private told = false
  private disposed = false

  constructor(private readonly setting: StatusLineSetting, private readonly hooks: StatusCommandHooks) {
    if (setting.refreshInterval !== undefined) {
      this.every = setInterval(() => this.refresh(), setting.refreshInterval * 1000)
      this.every.unref()
    }
  }

  /** The session changed: run the command again soon. */
  refresh(): void {
    if (this.disposed) return
    clearTimeout(this.debounce)
    this.debounce = setTimeout(() => void this.run(), STATUS_DEBOUNCE_MS)
    this.debounce.unref()
  }

  /** The session ended: nothing runs any more, and a run in flight is ended. */
  dispose(): void {
    this.disposed = true
    clearTimeout(this.debounce)
    clearInterval(this.every)
    this.running?.abort()
  }

  private async run(): Promise<void> {
    this.running?.abort()
    const mine = new AbortController()
    this.running = mine
    const input = this.hooks.input()
    const env = baseHookEnv({ base: this.hooks.env() as NodeJS.ProcessEnv, projectDir: this.hooks.cwd, input })
    const result = await spawnHook({
      file: '/bin/sh', args: ['-c', this.setting.command], cwd: this.hooks.cwd, env, stdin: `${JSON.stringify(input)}\n`,
      timeoutMs: TIMEOUT_MS, signal: mine.signal, killGraceMs: 1000, pipeGraceMs: 200,
    })
    if (this.running === mine) this.running = undefined
    // Superseded by a newer state, or the session is gone: what it printed is stale.
    if (result.status === 'cancelled' || this.disposed) return
    const problem = failure(result)
    if (problem === undefined) {
      // Working again: a later failure is news again.
      this.told = false
      return this.hooks.show(statusLines(result.stdout))
    }
    this.hooks.show([])
    if (this.told) return
    this.told = true
    this.hooks.failed(`statusLine command (${this.setting.file}) ${problem}; the status line stays empty while it fails`)
  }
}

/** What went wrong with a run, in words; nothing when it exited 0. */
function failure(r: ProcessRun): string | undefined {
  if (r.status === 'launch_error') return `could not start: ${r.launchError}`
  if (r.status === 'timeout') return `ran past ${TIMEOUT_MS / 1000} s and was stopped`
  if (r.exitCode === 0) return undefined
  const why = r.stderr.trim().split('\n')[0]
  return `failed (${r.exitCode === null ? `signal ${r.signal}` : `exit ${r.exitCode}`})${why ? `: ${why}` : ''}`
}

/** The command's output as lines to draw: colours kept, trailing blank lines dropped. */
export function statusLines(stdout: string): string[] {
  const lines = stdout.replace(/\r\n?/g, '\n').split('\n').map((l) => l.replace(NOT_SGR, '').replace(/\t/g, '  '))
  while (lines.length > 0 && lines.at(-1)!.trim() === '') lines.pop()
  return lines
}
