import { z } from 'zod'
import { defineMod } from '../../core/mod/define.js'
import { allowedDirsOptions } from '../_shared/allowed-paths.js'
import { registerTool } from '../_shared/register-tool.js'
import { delegated } from '../_shared/tool-delegate.js'
import { bashDescription, bashInput, bashTool, foregroundBashInput } from './bash-tool.js'
import { backgroundOff } from '../_shared/background-off.js'
import { offersShellTools } from './shell-tools-gate.js'
import { BASH_OUTPUT_DESCRIPTION, bashOutputInput, bashOutputTool, KILL_SHELL_DESCRIPTION, killShellInput, killShellTool } from './background-tools.js'
import '../_shared/hook-env-files.js'
import '../_shared/shell-cwd.js'
import '../_shared/bash-read-only.js'
import '../_shared/user-shell.js'
import { runBashMode } from './bash-mode.js'
import { publishToolOutput } from '../_shared/tool-output.js'
import { bashOutputShape } from './output-shape.js'
import { toolResultFile, toolResultsDirOf } from '../_shared/session-dir.js'
import { join } from 'node:path'
import { keepsDirectory, ShellSession } from './shell-session.js'
import { delegateShell } from './delegate-shell.js'
import { bashLimits } from './limits.js'
import '../_shared/tasks.js'
import { prepareWhileStreaming } from '../_shared/while-streaming.js'
import { builtinOptions } from '../_shared/builtin-options.js'
import { subprocessEnv } from '../../hooks-runner/scrub-env.js'
import { commandShell } from '../_shared/command-shell.js'

// Unset, each falls back to Claude Code's variable (BASH_DEFAULT_TIMEOUT_MS, BASH_MAX_TIMEOUT_MS,
// BASH_MAX_OUTPUT_LENGTH) in the session's environment, then to 120 s, 600 s and 30,000 (limits.ts).
const options = builtinOptions('bash', () => allowedDirsOptions().extend({
  defaultTimeoutMs: z.number().int().positive().optional(),
  maxTimeoutMs: z.number().int().positive().optional(),
  /** Per stream (stdout, stderr): past this, the middle is cut. */
  maxOutputChars: z.number().int().min(1_000).optional(),
  /** How long a command moved to the background at its timeout runs on there before it is stopped (default 10 minutes). */
  movedLimitMs: z.number().int().positive().optional(),
  /**
   * Offer BashOutput and KillShell, older tools for background shells, beside TaskStop. Claude Code
   * offers TaskStop only (the model reads a task's output file with Read), so they are off unless
   * this is set, `allowedTools` / `tools` names one, or the tasks mod is missing (no TaskStop then).
   */
  shellTools: z.boolean().optional(),
}))

// session.end handlers share a 1.5 s bound, so background shells get a shorter grace there.
const END_GRACE_MS = 500

/** Bash (and BashOutput and KillShell where offered): commands in their own process groups, cwd kept per session. */
export default defineMod({
  name: 'bash',
  description: 'The Bash tool, and BashOutput and KillShell where a session asks for them',
  options,
  provides: ['toolOutput.Bash', 'shellCwd', 'shellMove', 'userShell'],
  uses: { hookEnvFiles: 'optional', transcriptFile: 'optional', tasks: 'optional', bashReadOnly: 'optional' },
  register(on, opts, $) {
    // Where each session's shell is after `cd`, for the settings hooks that run there.
    const cwds = new Map<string, string>()
    $.capability.provide('shellCwd', (sessionId) => cwds.get(sessionId))
    const sessions = new Map<string, ShellSession>()
    $.capability.provide('shellMove', (sessionId, dir) => sessions.get(sessionId)?.enter(dir))
    // The person's own `!` commands run in the same shell as the model's: one directory, one `cd`.
    const userShells = new Map<string, (command: string, signal: AbortSignal) => ReturnType<typeof runBashMode>>()
    $.capability.provide('userShell', (sessionId) => userShells.get(sessionId))
    // Background shells run in groups of their own, which would outlive this process.
    const onExit = () => {
      for (const s of sessions.values()) {
        s.background.killAllNow()
        s.spare.dispose()
      }
    }
    process.on('exit', onExit)

    // A CLAUDE_CODE_SHELL set aside for bash is said once per value, not at every command.
    const shellWarnings = new Set<string>()
    const warnShell = (warning: string | undefined) => {
      if (!warning || shellWarnings.has(warning)) return
      shellWarnings.add(warning)
      $.log.warn(warning)
    }

    on('session.start', async ($, e, next) => {
      const limits = bashLimits(opts, (name) => $.env.get(name))
      const envFiles = () => [...($.capability.use('hookEnvFiles')?.(e.sessionId) ?? [])]
      const shell = new ShellSession(e.cwd, opts.additionalDirectories, envFiles, () => subprocessEnv($.env.all()), (cwd) => cwds.set(e.sessionId, cwd))
      sessions.set(e.sessionId, shell)
      let typed = 0
      userShells.set(e.sessionId, (command, signal) =>
        runBashMode(command, shell, limits, AbortSignal.any([signal, $.signal]), join(toolResultsDirOf($), toolResultFile(`bash-mode-${++typed}`))))
      // A subagent isolated in a worktree runs its commands there, its `cd` kept apart; background shells stay one list.
      const elsewhere = new Map<string, ShellSession>()
      const shellFor = (cwd: string) => {
        if (cwd === e.cwd) return shell
        let s = elsewhere.get(cwd)
        if (!s) elsewhere.set(cwd, s = new ShellSession(cwd, opts.additionalDirectories, envFiles, () => subprocessEnv($.env.all()), undefined, shell))
        return s
      }
      // Without background work, no task is started: run_in_background is refused, a timeout stops the command.
      const foregroundOnly = backgroundOff($.env.all())
      const tasks = () => (foregroundOnly ? undefined : $.capability.use('tasks')?.(e.sessionId))
      // The tasks mod's presence, not its session's registry, which may start after this handler runs.
      const shellTools = offersShellTools($, opts.shellTools, $.capability.use('tasks') !== undefined)
      await registerTool($, {
        name: 'Bash', description: bashDescription(limits, { shellTools, keepsDirectory: keepsDirectory($.env.all()), foregroundOnly }),
        input: foregroundOnly ? foregroundBashInput : bashInput,
        // A line that only reads runs beside the response's other read-only calls, as in Claude Code;
        // without a mod that knows the commands, every call runs alone.
        isReadOnly: (input) => $.capability.use('bashReadOnly')?.(input.command) === true,
        // A mod disposed mid-command (host closing) stops the command too.
        call: async (input, ctx) => {
          const signal = AbortSignal.any([ctx.signal, $.signal])
          const own = shellFor(ctx.cwd)
          warnShell(commandShell(own.env()).warning)
          const at = await own.currentCwd()
          return (await delegated('Bash', input, { ...ctx, cwd: at.cwd, signal }, [], delegateShell(own, at.cwd))) ?? bashTool(input, { ...ctx, signal }, own, limits, join(toolResultsDirOf($), toolResultFile(ctx.toolUseId)), tasks(), at)
        },
      })
      publishToolOutput($, 'Bash', bashOutputShape)
      if (shellTools) await registerTool($, { name: 'BashOutput', description: BASH_OUTPUT_DESCRIPTION, input: bashOutputInput, isReadOnly: true, call: (input) => bashOutputTool(input, shell, limits.maxOutputChars) })
      if (shellTools) await registerTool($, { name: 'KillShell', description: KILL_SHELL_DESCRIPTION, input: killShellInput, isReadOnly: false, call: (input) => killShellTool(input, shell, tasks()) })
      return next(e)
    })

    // While the model streams its answer, the next command's bash starts (SpareShell).
    prepareWhileStreaming(on, ($) => {
      const shell = sessions.get($.session.id())
      return shell && { needed: () => shell.spare.needed() && commandShell(shell.env()).shell === 'bash', prepare: () => shell.spare.prepare(shell.env()) }
    })

    on('session.end', async ($, e, next) => {
      const shell = sessions.get(e.sessionId)
      sessions.delete(e.sessionId)
      userShells.delete(e.sessionId)
      shell?.spare.dispose()
      await shell?.background.killAll(END_GRACE_MS)
      return next(e)
    })

    return async () => {
      process.off('exit', onExit)
      for (const s of sessions.values()) s.spare.dispose()
      await Promise.all([...sessions.values()].map((s) => s.background.killAll(END_GRACE_MS)))
      sessions.clear()
      userShells.clear()
    }
  },
})
