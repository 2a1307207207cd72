import { existsSync } from 'node:fs'
import { commandLine } from './command-line.js'
import type { CommandHandler } from './config-schema.js'
import type { HookSource } from './hooks-config.js'
import type { RawResult } from './raw-result.js'
import type { SpareSh } from './spare-sh.js'
import { spawnHook, type ProcessRun } from './spawn-hook.js'

export interface CommandContext {
  stdin: string
  cwd: string
  /** Where to run when `cwd` has been deleted (CL 2.1.239): the project root, then home. */
  fallbackDirs: readonly string[]
  env: NodeJS.ProcessEnv
  timeoutMs: number
  signal?: AbortSignal
  killGraceMs: number
  pipeGraceMs: number
  /** Honour a leading `{"async": true}` on stdout by moving the process to the background. */
  detectAsync: boolean
  spare?: SpareSh
}

export interface CommandOutcome {
  raw: RawResult
  /** The hook declared itself async: its real result arrives here. */
  later?: Promise<RawResult>
  asyncTimeoutMs?: number
}

export async function runCommand(h: CommandHandler, source: HookSource, ctx: CommandContext): Promise<CommandOutcome> {
  const cwd = [ctx.cwd, ...ctx.fallbackDirs].find((d) => existsSync(d)) ?? ctx.cwd
  const line = commandLine(h, source, ctx.env, cwd)
  if (line.launchError) {
    return { raw: { status: 'launch_error', exitCode: null, stdout: '', stderr: '', durationMs: 0, message: `could not be started: ${line.launchError}` } }
  }
  const run = await spawnHook({
    file: line.file, args: line.args, cwd, env: ctx.env, stdin: ctx.stdin, timeoutMs: ctx.timeoutMs, signal: ctx.signal,
    killGraceMs: ctx.killGraceMs, pipeGraceMs: ctx.pipeGraceMs, detectAsync: ctx.detectAsync, spare: ctx.spare,
  })
  const shellForm = !h.args && h.shell !== 'powershell'
  const raw = toRaw(run, shellForm, ctx.timeoutMs)
  if (!run.detached) return { raw }
  const { asyncTimeoutMs, later } = run.detached
  return { raw, asyncTimeoutMs, later: later.then((r) => toRaw(r, shellForm, asyncTimeoutMs ?? ctx.timeoutMs)) }
}

function toRaw(run: ProcessRun, shellForm: boolean, timeoutMs: number): RawResult {
  const base = { exitCode: run.exitCode, signal: run.signal, pid: run.pid, stdout: run.stdout, stderr: run.stderr, durationMs: run.durationMs, shellForm, ...(run.stdoutCut ? { stdoutCut: run.stdoutCut } : {}), ...(run.pipesHeld ? { pipesHeld: run.pipesHeld } : {}) }
  switch (run.status) {
    case 'launch_error':
      return { ...base, status: 'launch_error', message: `could not be started: ${run.launchError}` }
    case 'timeout':
      return { ...base, status: 'timeout', message: `timed out after ${formatSeconds(timeoutMs)}; its process group was killed` }
    case 'cancelled':
      return { ...base, status: 'cancelled', message: 'Hook cancelled' }
    default:
      return { ...base, status: 'done' }
  }
}

export function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`
}
