import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { TmuxControl } from './tmux-control.js'

// Longer than the terminal's typeahead window (mods/terminal-ui/keys.ts), shorter than any person.
const REACTION_MS = 30
// Between reads of a pane while waiting for a screen. 20 ms took the terminal files alone from
// 42-46 to 37-40 s, but a whole suite run no faster (their reads compete with the other files).
const POLL_MS = 40

// Each test file's server, by socket name (see startServer).
const servers = new Map<string, TmuxControl>()
const root = fileURLToPath(new URL('../..', import.meta.url))
const SCREENS = join(root, 'test/terminal-ui/__screens__')

/** Starts a test file's tmux server on its own socket; `killServer` stops it. */
export function startServer(socket: string): void {
  servers.set(socket, TmuxControl.start(socket))
}

export async function killServer(socket: string): Promise<void> {
  await servers.get(socket)?.close()
  servers.delete(socket)
}

async function tmux(socket: string, args: string[]): Promise<string> {
  const server = servers.get(socket)
  if (!server) throw new Error(`no tmux server on ${socket}: startServer first`)
  return server.command(args)
}

/** One tmux server per test file (its own socket), one 80×24 pane per test. */
export class Pane {
  constructor(readonly socket: string, readonly name: string) {}

  /** Any tmux command (`capture-pane -e`, `display-message`) against this pane's server: its output. */
  tmux(...args: string[]): Promise<string> {
    return tmux(this.socket, args)
  }

  static async start(socket: string, name: string, o: { cwd: string; env: Record<string, string>; command: string[]; width?: number; height?: number }): Promise<Pane> {
    const env = Object.entries(o.env).map(([k, v]) => `${k}=${shellQuote(v)}`).join(' ')
    const line = `cd ${shellQuote(o.cwd)} && env ${env} ${o.command.map(shellQuote).join(' ')}; echo "[exited $?]"; sleep 30`
    await tmux(socket, ['new-session', '-d', '-s', name, '-x', String(o.width ?? 80), '-y', String(o.height ?? 24), 'sh', '-c', line])
    return new Pane(socket, name)
  }

  async capture(): Promise<string> {
    return this.tmux('capture-pane', '-p', '-t', this.name)
  }

  /** The visible rows with the lines the terminal wrapped joined back, spaces at a wrap kept (tmux -J). */
  async joined(): Promise<string> {
    return this.tmux('capture-pane', '-p', '-J', '-t', this.name)
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
      await delay(POLL_MS)
    }
    throw new Error(`the pane never showed ${JSON.stringify(text)} (wrapped lines joined); it showed:\n${screen}`)
  }

  /** The whole scrollback, not only the visible rows. */
  async history(): Promise<string> {
    return this.tmux('capture-pane', '-p', '-S', '-', '-t', this.name)
  }

  /** Types text literally. */
  async type(text: string): Promise<void> {
    await this.tmux('send-keys', '-t', this.name, '-l', text)
  }

  /** Sends named keys (Enter, Escape, C-c, BTab, M-Enter …). */
  async keys(...keys: string[]): Promise<void> {
    await this.tmux('send-keys', '-t', this.name, ...keys)
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
      await delay(POLL_MS)
    }
    throw new Error(`the pane never showed ${String(expected)}; it showed:\n${screen}`)
  }

  async save(file: string): Promise<void> {
    await mkdir(SCREENS, { recursive: true })
    await writeFile(join(SCREENS, `${file}.txt`), steadyScreen(await this.history()))
  }

  async kill(): Promise<void> {
    await this.tmux('kill-session', '-t', this.name).catch(() => {})
  }
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
