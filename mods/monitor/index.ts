import { z } from 'zod'
import { defineMod } from '../../core/mod/define.js'
import { registerTool } from '../_shared/register-tool.js'
import '../_shared/hook-env-files.js'
import '../_shared/shell-cwd.js'
import '../_shared/subagents.js'
import '../_shared/tasks.js'
import { DEFAULT_OUTPUT_CHARS } from '../bash/limits.js'
import { shellQuote } from '../bash/run-shell.js'
import { DEFAULT_RATE } from './event-gate.js'
import { MONITOR_DESCRIPTION, monitorInput, monitorTool } from './monitor-tool.js'
import { MONITOR_TOOL } from './texts.js'
import { builtinOptions } from '../_shared/builtin-options.js'
import { subprocessEnv } from '../../hooks-runner/scrub-env.js'

const options = builtinOptions('monitor', () => z.object({
  /** Lines printed within this many ms of the first of them go out as one notification. */
  batchMs: z.number().int().min(0).default(200),
  /** The most characters one notification carries, as Bash caps a command's output; past it, it is cut and names the output file. */
  maxEventChars: z.number().int().min(1_000).default(DEFAULT_OUTPUT_CHARS),
  /** Notifications one monitor may send per window before the rest are held back (event-gate.ts). */
  maxEventsPerWindow: z.number().int().min(1).default(DEFAULT_RATE.maxPerWindow),
  windowMs: z.number().int().min(1).default(DEFAULT_RATE.windowMs),
  /** Windows in a row with notifications held back, after which the monitor is stopped. */
  maxFloodedWindows: z.number().int().min(1).default(DEFAULT_RATE.maxFloodedWindows),
}))

/**
 * The Monitor tool: a shell command watched in the background, each batch of its stdout lines a
 * notification the model reads while it works. The watch is a task of the session's registry (the
 * `tasks` capability), so the stream announces it, it counts toward the cap on background work,
 * TaskStop and Query.stopTask stop it, its output file keeps both streams, and the session's end
 * ends its process group. It runs as Bash's commands do: in the shell's directory, with the
 * environment files settings hooks wrote.
 */
export default defineMod({
  name: 'monitor',
  description: 'The Monitor tool: a background command whose stdout lines reach the model as events',
  options,
  uses: { tasks: 'required', shellCwd: 'optional', hookEnvFiles: 'optional', subagents: 'optional' },
  register(on, opts, $) {
    const rate = { windowMs: opts.windowMs, maxPerWindow: opts.maxEventsPerWindow, maxFloodedWindows: opts.maxFloodedWindows }
    on('session.start', async ($, e, next) => {
      const shell = () => {
        const files = $.capability.use('hookEnvFiles')?.(e.sessionId) ?? []
        return {
          cwd: $.capability.use('shellCwd')?.(e.sessionId) ?? e.cwd,
          prelude: files.map((f) => `[ -r ${shellQuote(f)} ] && . ${shellQuote(f)} >/dev/null; `).join(''),
          env: subprocessEnv($.env.all()),
        }
      }
      await registerTool($, {
        name: MONITOR_TOOL, description: MONITOR_DESCRIPTION, input: monitorInput, isReadOnly: false,
        // The registry is looked up at the call: the tasks mod's session.start may run after this one.
        call: (input, ctx) => monitorTool(input, ctx, { registry: $.capability.use('tasks')?.(e.sessionId), shell, batchMs: opts.batchMs, maxEventChars: opts.maxEventChars, rate, subagents: () => $.capability.use('subagents')?.(e.sessionId) }),
      })
      return next(e)
    })
  },
})
