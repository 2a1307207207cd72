import { execFile } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

// Longer than the terminal's typeahead window (mods/terminal-ui/keys.ts), shorter than any person.
const REACTION_MS = 30

const run = promisify(execFile)
const root = fileURLToPath(new URL('../..', import.meta.url))
const SCREENS = join(root, 'test/terminal-ui/__screens__')

/** One tmux server per test file (its own socket), one 80×24 pane per test. */
export class Pane {
  constructor(readonly socket: string, readonly name: string) {}

  static async start(socket: string, name: string, o: { cwd: string; env: Record<string, string>; command: string[]; width?: number; height?: number }): Promise<Pane> {
    const env = Object.entries(o.env).map(([k, v]) => `${k}=${shellQuote(v)}`).join(' ')
    const line = `cd ${shellQuote(o.cwd)} && env ${env} ${o.command.map(shellQuote).join(' ')}; echo "[exited $?]"; sleep 30`
    await run('tmux', ['-L', socket, '-f', '/dev/null', 'new-session', '-d', '-s', name, '-x', String(o.width ?? 80), '-y', String(o.height ?? 24), 'sh', '-c', line])
    return new Pane(socket, name)
  }

  async capture(): Promise<string> {
    const { stdout } = await run('tmux', ['-L', this.socket, 'capture-pane', '-p', '-t', this.name])
    return stdout
  }

  /** The visible rows with the lines the terminal wrapped joined back, spaces at a wrap kept (tmux -J). */
  async joined(): Promise<string> {
    const { stdout } = await run('tmux', ['-L', this.socket, 'capture-pane', '-p', '-J', '-t', this.name])
    return stdout
  }

  /**
   * Polls until `text` shows as the program printed it, wherever the pane wrapped it: a line that
   * holds a temporary path is as long as the path, and wraps anywhere. Answers the joined rows.
   */
  async waitForText(text: string, timeoutMs = 8000): Promise<string> {
    const deadline = Date.now() + timeoutMs
    let screen = ''
    while (Date.now() < deadline) {
      screen = await this.joined()
      if (screen.includes(text)) {
        await delay(REACTION_MS)
        return screen
      }
      await delay(40)
    }
    throw new Error(`the pane never showed ${JSON.stringify(text)} (wrapped lines joined); it showed:\n${screen}`)
  }

  /** The whole scrollback, not only the visible rows. */
  async history(): Promise<string> {
    const { stdout } = await run('tmux', ['-L', this.socket, 'capture-pane', '-p', '-S', '-', '-t', this.name])
    return stdout
  }

  /** Types text literally. */
  async type(text: string): Promise<void> {
    await run('tmux', ['-L', this.socket, 'send-keys', '-t', this.name, '-l', text])
  }

  /** Sends named keys (Enter, Escape, C-c, BTab, M-Enter …). */
  async keys(...keys: string[]): Promise<void> {
    await run('tmux', ['-L', this.socket, 'send-keys', '-t', this.name, ...keys])
  }

  /**
   * Polls the pane until `expected` shows (or the predicate holds), or fails with what it showed.
   * It answers a moment after the screen showed, as a person would: the terminal takes keys that
   * arrive within 20 ms of a new question for typed-ahead ones (mods/terminal-ui/keys.ts).
   */
  async waitFor(expected: string | RegExp | ((screen: string) => boolean), timeoutMs = 8000, whole = false): Promise<string> {
    const deadline = Date.now() + timeoutMs
    let screen = ''
    while (Date.now() < deadline) {
      screen = whole ? await this.history() : await this.capture()
      if (typeof expected === 'string' ? screen.includes(expected) : typeof expected === 'function' ? expected(screen) : expected.test(screen)) {
        await delay(REACTION_MS)
        return screen
      }
      await delay(40)
    }
    throw new Error(`the pane never showed ${String(expected)}; it showed:\n${screen}`)
  }

  async save(file: string): Promise<void> {
    await mkdir(SCREENS, { recursive: true })
    await writeFile(join(SCREENS, `${file}.txt`), steadyScreen(await this.history()))
  }

  async kill(): Promise<void> {
    await run('tmux', ['-L', this.socket, 'kill-session', '-t', this.name]).catch(() => {})
  }
}

export async function killServer(socket: string): Promise<void> {
  await run('tmux', ['-L', socket, 'kill-server']).catch(() => {})
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`
}

/**
 * A screen as saved for review: the temp dir's random name, session ids and measured durations
 * replaced by placeholders, so a run that shows the same screen leaves the saved file as it was
 * (a screen caught mid-stream, as interrupt-and-queue's is, still varies with timing).
 */
export function steadyScreen(screen: string): string {
  return screen
    .replace(/tui-[A-Za-z0-9]{6}/g, 'tui-XXXXXX')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '00000000-0000-0000-0000-000000000000')
    .replace(/(· (?:ok|error|denied|interrupted) · )\d[\d.]*/g, '$1N')
    .replace(/(tokens · )\d+ms ─+/g, '$1Nms ───')
}
