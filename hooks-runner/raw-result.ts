import type { HooksErrorCode } from './errors.js'

/**
 * What a handler runner (command, http, mcp_tool, prompt/agent) reports, before the protocol's
 * rules give it a meaning. `interpretResult` turns it into a record and an effect.
 */
export interface RawResult {
  /** `done`: the handler answered; `failed`: it could not answer (connection error, unsupported, bad reply). */
  status: 'done' | 'timeout' | 'cancelled' | 'launch_error' | 'failed'
  /** Command hooks: the exit status (a signal death is null). Other kinds: 0 when they answered. */
  exitCode: number | null
  signal?: NodeJS.Signals | null
  httpStatus?: number
  pid?: number
  stdout: string
  /** stdout ran past the runner's cap: `stdout` is its first `kept` characters of `total`. */
  stdoutCut?: { kept: number; total: number }
  /** A command hook exited while a process it left running still held its output pipes (its group is `pid`). */
  pipesHeld?: true
  stderr: string
  durationMs: number
  message?: string
  errorCode?: HooksErrorCode
  /** Shell form: 126/127 mean the shell could not find or run the program. */
  shellForm?: boolean
  /** An http 2xx body that is not a JSON object: a non-blocking error, never context. */
  bodyNotJson?: boolean
  /** A prompt or agent hook's verdict. */
  verdict?: { ok: boolean; reason?: string; impossible?: boolean }
}

export function failedRaw(status: RawResult['status'], message: string, errorCode: HooksErrorCode, durationMs = 0): RawResult {
  return { status, exitCode: null, stdout: '', stderr: '', durationMs, message, errorCode }
}
