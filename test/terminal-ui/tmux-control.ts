import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'

interface Waiting { resolve(out: string): void; reject(error: Error): void }

/**
 * One tmux server, driven through one control-mode client (`tmux -C`): each command is a line on
 * its stdin, answered in order between `%begin` and `%end` (or `%error`). A test polls its pane
 * while it waits for a screen, and a `tmux` process per poll was a fork of the test worker, which
 * blocked it ~27 ms under the suite's load (~1,500 forks a run).
 */
export class TmuxControl {
  private readonly waiting: Waiting[] = []
  private block?: { end: string; error: string; lines: string[]; to?: Waiting }
  private partial = ''
  private exited = false

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8').on('data', (data: string) => this.read(data))
    child.stderr.resume()
    child.stdin.on('error', () => {})
    const gone = (why: string) => {
      this.exited = true
      for (const w of this.waiting.splice(0)) w.reject(new Error(why))
    }
    // tmux missing or not runnable: every command fails saying so, rather than the worker crashing.
    child.once('error', (err) => gone(`tmux could not be started: ${err.message}`))
    child.once('close', () => gone('the tmux control client exited'))
  }

  /**
   * Starts the server with a session that holds the control client, a `sleep` that prints
   * nothing (an attached client is told of its session's output), and keeps the server up while
   * the tests' sessions come and go.
   */
  static start(socket: string): TmuxControl {
    return new TmuxControl(spawn('tmux', ['-L', socket, '-f', '/dev/null', '-C', 'new-session', '-s', 'keeper', 'sleep 600']))
  }

  /** Runs one tmux command: its output, each line ended by a newline as the `tmux` command prints it. */
  command(args: string[]): Promise<string> {
    if (this.exited) return Promise.reject(new Error('the tmux control client exited'))
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject })
      this.child.stdin.write(`${args.map(quote).join(' ')}\n`)
    })
  }

  /** Stops the server, and with it every pane and the control client. */
  async close(): Promise<void> {
    if (this.exited) return
    const closed = new Promise((resolve) => this.child.once('close', resolve))
    this.child.stdin.end('kill-server\n')
    await closed
  }

  private read(data: string): void {
    const lines = (this.partial + data).split('\n')
    this.partial = lines.pop()!
    for (const line of lines) this.line(line)
  }

  private line(line: string): void {
    const block = this.block
    if (block) {
      if (line !== block.end && line !== block.error) return void block.lines.push(line)
      this.block = undefined
      const out = block.lines.map((l) => `${l}\n`).join('')
      if (line === block.end) block.to?.resolve(out)
      else block.to?.reject(new Error(`tmux: ${out.trim()}`))
      return
    }
    // `%begin <time> <number> <flags>`: flags 1 for a command this client sent, 0 for the one it
    // started with. Other lines out of a block are notifications (sessions made, windows added).
    const begin = /^%begin (\S+ \S+ (\d+))$/.exec(line)
    if (!begin) return
    this.block = { end: `%end ${begin[1]}`, error: `%error ${begin[1]}`, lines: [], to: begin[2] === '1' ? this.waiting.shift() : undefined }
  }
}

/**
 * One argument in tmux's command syntax: double-quoted, with what tmux would expand there
 * (`$`, `~`) and what would end it escaped, control characters as octal escapes.
 */
function quote(arg: string): string {
  const body = arg
    .replace(/[\\"$~]/g, (c) => `\\${c}`)
    .replace(/[\x00-\x1f\x7f]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`)
  return `"${body}"`
}
