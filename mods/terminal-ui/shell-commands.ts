import type { UserShellRun } from '../_shared/user-shell.js'
import type { App } from './app.js'
import type { Paint } from './color.js'
import type { InputChannel } from './input-channel.js'
import type { MessageView } from './message-view.js'
import { detailLines } from './tool-view.js'

interface Parts {
  app: App
  view: MessageView
  paint: Paint
  input: InputChannel
  say: (text: string, level?: 'info' | 'warn' | 'error') => void
  /** The session's shell, when a loaded mod runs one (bash's `userShell`). */
  runner: () => ((command: string, signal: AbortSignal) => Promise<UserShellRun>) | undefined
}

/**
 * The commands typed in `!` mode: each runs in the session's shell once no turn runs (one typed
 * during a turn waits for its end, as Claude Code holds them), its output shows under it, and the
 * command with its output goes to the model as one user message, which starts a turn. Esc stops a
 * command still running: nothing is sent and it goes back to the prompt.
 */
export function shellCommands(p: Parts) {
  const waiting: string[] = []
  let running: AbortController | undefined

  async function runNext(): Promise<void> {
    const command = waiting.shift()
    if (command === undefined || running) return
    const run = p.runner()
    if (!run) return p.say('no loaded mod runs shell commands (the bash mod provides them)', 'warn')
    void p.view.print(`${p.paint.magenta('!')} ${command.split('\n').join('\n  ')}`)
    p.app.busy = true
    running = new AbortController()
    let r: UserShellRun
    try {
      r = await run(command, running.signal)
    } catch (err) {
      p.app.busy = false
      return p.say(`the command could not be run: ${(err as Error).message}`, 'error')
    } finally {
      running = undefined
    }
    if (r.aborted) {
      p.app.busy = false
      void p.view.print(p.paint.yellow('  ⎿  Interrupted'))
      if (p.app.editor.text === '') {
        p.app.shell = true
        p.app.editor.set(command)
      }
      p.app.redraw()
      return
    }
    const shown = detailLines('Bash', undefined, r.output, 'ok', p.paint)
    void p.view.print((shown.length > 0 ? shown : [p.paint.dim('  ⎿  (Bash completed with no output)')]).join('\n'))
    // The turn it starts keeps the terminal busy until its result.
    p.input.send({ type: 'user', message: { role: 'user', content: r.blocks }, parent_tool_use_id: null, priority: 'next', origin: { kind: 'bash' } })
  }

  return {
    add(command: string): void {
      waiting.push(command)
      if (!p.app.busy) void runNext()
      else p.app.redraw()
    },
    /** A turn ended: the next command waiting runs. */
    turnEnded(): void {
      if (waiting.length > 0) void runNext()
    },
    /** Esc: stops the running command; false when none runs. */
    stop(): boolean {
      if (!running) return false
      running.abort()
      return true
    },
  }
}
