import { z } from 'zod'
import type { ToolContext, ToolOutput } from '../../core/tools/tool.js'
import { failure } from '../_shared/register-tool.js'
import type { Subagents } from '../_shared/subagents.js'
import type { TaskRegistry } from '../_shared/tasks.js'
import type { MonitorRun } from './run-monitor.js'
import { runMonitor } from './run-monitor.js'
import { startedText } from './texts.js'
import { builtinInput } from '../_shared/builtin-input.js'

export const DEFAULT_TIMEOUT_MS = 300_000
export const MAX_TIMEOUT_MS = 1_800_000

// `ws` (a WebSocket source) is left out: Node 20 has no WebSocket client of its own.
export const monitorInput = builtinInput('Monitor', () => z.object({
  description: z.string().describe('What is being watched, in a few words; every notification of this monitor carries it, so make it specific ("errors in deploy.log")'),
  timeout_ms: z.number().min(1000).max(3_600_000).default(DEFAULT_TIMEOUT_MS)
    .describe(`How long the monitor may run before it is killed, in ms (default ${DEFAULT_TIMEOUT_MS}; more than ${MAX_TIMEOUT_MS} counts as ${MAX_TIMEOUT_MS}). You get a notice when it expires and can start it again.`),
  command: z.string().optional().describe('The shell command to watch. Every line it prints on stdout is an event; when it exits, the watch is over.'),
}))
export type MonitorInput = z.output<ReturnType<typeof monitorInput>>

export const MONITOR_DESCRIPTION = `Runs a shell command in the background and turns every line it prints on stdout into an event you are notified of, while you go on with other work. Events come when they come: one arriving while you wait for the user is not the user's reply.

Which tool to use:
- To hear once that something happened (a build finished, a server is up), a background Bash call (run_in_background) suits better, its command exiting at that moment (\`until curl -sf localhost:3000; do sleep 1; done\`): one notification when it ends.
- To hear of each occurrence of something (every ERROR line of a log, each file change), use Monitor with a command that never ends by itself (\`tail -f\`, \`inotifywait -m\`, a \`while true\` loop); it runs until it expires, and you start it again to keep watching.
- To hear of each step of something that finishes (the checks of a CI run as they complete), use Monitor with a command that prints them and exits when it is done.

Writing the command:
- Only stdout makes events. stderr is saved in the task's output file (read it with Read) and notifies nobody; add 2>&1 where a failure written on stderr should reach your filter.
- Each stage of a pipeline must write line by line, or the lines wait in its buffer: \`grep --line-buffered\`, \`awk\` with \`fflush()\`. \`head\` holds everything back until it has its N lines.
- Filter for every outcome you would act on, failures and crashes as well as success: a monitor that only matches the good line stays silent when the process dies, and silence looks like "still running".
- Keep it selective: each line is a message you have to read. Lines printed within about 200 ms of each other arrive as one notification. A monitor that keeps printing more than can be reported is held back, then stopped; start it again with a narrower filter.
- In polling loops, let one failed request pass (\`curl ... || true\`), and wait 30 s or more between calls to remote APIs.

The command sees what Bash's commands see: their environment, and the directory Bash is in. When it exits, the watch ends and you are told its exit code. When \`timeout_ms\` runs out (default 5 minutes, at most 30), the command is ended and a single notice tells you how many events it delivered. Stop it early with TaskStop and the task id this call returns.`

export interface MonitorSetup {
  registry: TaskRegistry | undefined
  /** Where Bash's shell is now, and what its commands run with. */
  shell: () => { cwd: string; prelude: string; env: MonitorRun['env'] }
  batchMs: number
  maxEventChars: number
  rate: MonitorRun['rate']
  /** The session's subagents, whose own watches report to them. */
  subagents: () => Subagents | undefined
}

/** Monitor: starts the watch as a background task of the session's registry, and returns at once. */
export async function monitorTool(input: MonitorInput, ctx: ToolContext, setup: MonitorSetup): Promise<ToolOutput> {
  const { registry } = setup
  if (!registry) return failure('Monitor needs the tasks mod (it keeps the session\'s background work), which this distribution does not load.')
  if (input.command === undefined || input.command.trim() === '') return failure('Monitor needs a command to watch: each line it prints on stdout is an event.')
  const { agentId } = ctx
  const timeoutMs = Math.min(input.timeout_ms, MAX_TIMEOUT_MS)
  const { cwd, prelude, env } = setup.shell()
  const run: MonitorRun = { description: input.description, script: `${prelude}${input.command}`, cwd, env, timeoutMs, batchMs: setup.batchMs, maxEventChars: setup.maxEventChars, rate: setup.rate }
  const launched = await registry.launch({
    type: 'local_bash', description: input.description, command: input.command, background: true, toolUseId: ctx.toolUseId,
    // As a background shell: one the main conversation started keeps `-p` waiting for its events; a
    // subagent's ends with it, and its reports join that subagent's tool rounds while it runs.
    ...(agentId ? { startedBy: agentId, deliver: (text: string) => setup.subagents()?.notify(agentId, text) ?? false } : { holdsSession: true }),
    run: (task) => runMonitor(run, task, registry),
  })
  if ('refused' in launched) return failure(launched.refused)
  const id = launched.task.id
  return { result: { taskId: id, timeoutMs, persistent: false }, text: startedText(id, timeoutMs) }
}
