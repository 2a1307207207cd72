import type { ModApi } from '../../core/mod/api.js'
import { Chooser, type Choice, type Chosen } from './chooser.js'
import { SearchChooser } from './search-chooser.js'
import type { Paint } from './color.js'
import { CommandMenu, type MenuCommand } from './command-menu.js'
import { Editor } from './editor.js'
import type { MessageView } from './message-view.js'
import { PendingPrompts } from './pending.js'
import type { Screen } from './screen.js'
import type { SidePanel } from './side-question.js'

export interface Key {
  name?: string
  sequence?: string
  ctrl?: boolean
  meta?: boolean
  shift?: boolean
}

/** What the keys do to the running session; the session runner supplies it. */
export interface Actions {
  submit(text: string, priority: 'now' | 'next' | 'later'): void
  /** Runs a command typed in `!` mode in the session's shell. */
  shell?(command: string): void
  interrupt(): void
  exit(): void
  cycleMode(): void
  /** Stops a running background task (Query.stopTask). */
  stopTask(taskId: string): void
  /** `/btw <question>`: asked at once, beside a running turn (Query.askSideQuestion). */
  sideQuestion?(question: string): void
}

/** A background task as the stream's background_tasks_changed lists it. */
export interface BackgroundTask { task_id: string; task_type: string; description: string }

const MODE_NAMES: Record<string, string> = {
  default: 'default', acceptEdits: 'accept edits', plan: 'plan mode', bypassPermissions: 'bypass permissions', dontAsk: "don't ask", auto: 'auto',
}
const EXIT_WINDOW_MS = 1500
const PASTED_TAB = '    '

export const KEYS_HELP = [
  'Keys:',
  '  Enter send · \\ then Enter, Shift+Enter or Ctrl+J: new line · Alt+Enter: send now (interrupts the turn)',
  '  ! on an empty prompt: shell mode (Enter runs the command, Backspace leaves it)',
  '  Esc interrupt the turn · Shift+Tab cycle the permission mode · Tab complete a /command (↑↓ pick one)',
  '  Ctrl+O show the last thinking in full, or collapse thinking again',
  '  ↑↓ history · Ctrl+C twice or Ctrl+D exit · Ctrl+T stop a background task',
].join('\n')

/**
 * The terminal's interactive state: the prompt editor, an open chooser (a permission ask, a
 * session pick), the status line. Keys come in here; what they mean for the session goes out
 * through `Actions`. The live region is redrawn from this state after every change.
 */
export class App {
  readonly editor = new Editor()
  /** Prompts typed and not yet taken by a turn, shown above the prompt. */
  readonly pending = new PendingPrompts()
  private readonly reason = new Editor()
  private readonly choosers: Chooser<unknown>[] = []
  busy = false
  /** The prompt is in `!` mode: Enter runs its text as a shell command. */
  shell = false
  mode = 'default'
  /** The background tasks running now, as the last background_tasks_changed listed them. */
  tasks: BackgroundTask[] = []
  /** A `/btw` side question shown above the prompt until it is dismissed. */
  side: SidePanel | undefined
  /** What the `statusLine` command printed last, drawn above modloop's own status line. */
  customStatus: { lines: string[]; padding: number } | undefined
  $: ModApi | undefined
  private readonly menu = new CommandMenu()
  private exitArmedAt = 0
  private pasting = false
  private redrawQueued = false
  private stopped = false
  private actionsNow: Actions | undefined
  /** Prompts sent before the session was ready; they go out as soon as it is. */
  private early: [string, 'now' | 'next' | 'later'][] = []
  /** Shift+Tabs pressed before the session was ready. */
  private earlyModeCycles = 0

  constructor(private readonly screen: Screen, private readonly paint: Paint, readonly view: MessageView) {}

  /** The columns a line of the live region may fill. */
  get width(): number {
    return this.screen.columns - 1
  }

  get actions(): Actions | undefined {
    return this.actionsNow
  }

  set actions(actions: Actions | undefined) {
    this.actionsNow = actions
    if (!actions) return
    for (; this.earlyModeCycles > 0; this.earlyModeCycles--) actions.cycleMode()
    for (const [text, priority] of this.early.splice(0)) actions.submit(text, priority)
  }

  private submit(text: string, priority: 'now' | 'next' | 'later'): void {
    if (this.actionsNow) this.actionsNow.submit(text, priority)
    else this.early.push([text, priority])
  }

  /** The session's commands, for completion. */
  async refreshCommands(): Promise<void> {
    try {
      const listed = (await this.$?.command.list()) as MenuCommand[] | undefined
      this.menu.set(listed ?? [])
      this.redraw()
    } catch {
      // No session yet: completion waits for one.
    }
  }

  /** Opens a chooser (highlighting choice `start`) and answers its pick; several wait their turn. */
  choose<T>(title: string[], choices: Choice<T>[], cancel: T, start = 0): Promise<Chosen<T>> {
    return new Promise((resolve) => {
      const chooser = new Chooser<T>(title, choices, resolve, cancel)
      chooser.index = Math.min(Math.max(0, start), Math.max(0, choices.length - 1))
      this.open(chooser)
    })
  }

  open<T>(chooser: Chooser<T>): Chooser<T> {
    this.choosers.push(chooser as Chooser<unknown>)
    this.redraw()
    return chooser
  }

  /** Answers every open chooser with its cancel value: the session is going away. */
  cancelAll(): void {
    for (const chooser of this.choosers.splice(0)) chooser.resolve({ value: chooser.cancel })
    this.redraw()
  }

  /** Closes a chooser that is no longer wanted (its tool call was interrupted). */
  close<T>(chooser: Chooser<T>): void {
    const i = this.choosers.indexOf(chooser as Chooser<unknown>)
    if (i >= 0) this.choosers.splice(i, 1)
    this.redraw()
  }

  /** A key; `early` when it was typed before the terminal was taken (before any question was drawn). */
  onKey(str: string | undefined, key: Key = {}, early = false): void {
    if (key.name === 'paste-start') return void (this.pasting = true)
    if (key.name === 'paste-end') return void (this.pasting = false)
    // Also while a chooser is open: the thinking may be what the answer depends on.
    if (key.ctrl && key.name === 'o' && !this.pasting) return this.view.toggleThinking()
    if (key.ctrl && key.name === 't' && !this.pasting && !early) return this.pickTaskToStop()
    const chooser = this.choosers[0]
    // Typed ahead for the prompt, it must not answer a question (trust, approvals) no one has seen yet.
    if (chooser && early) return
    if (chooser) this.chooserKey(chooser, str, key)
    else if (!this.sideKey(key)) this.editorKey(str, key)
    this.redraw()
  }

  private chooserKey(chooser: Chooser<unknown>, str: string | undefined, key: Key): void {
    const done = (finished: boolean) => { if (finished) this.choosers.shift() }
    if (key.ctrl && key.name === 'c') return done(this.cancel(chooser))
    if (chooser.typing) {
      if (key.name === 'escape') return void (chooser.typing = undefined)
      if (key.name === 'return') {
        chooser.typed(this.reason.take())
        return done(true)
      }
      return void this.edit(this.reason, str, key)
    }
    if (chooser instanceof SearchChooser && chooser.searchKey(str, key)) return
    if (key.name === 'escape') return done(this.cancel(chooser))
    if (key.name === 'up') return chooser.move(-1)
    if (key.name === 'down' || key.name === 'tab') return chooser.move(1)
    if (key.name === 'return') return done(chooser.pick())
    if (key.name === 'space' && chooser.multi) return chooser.toggle()
    if (str && /^[1-9]$/.test(str)) return done(chooser.digit(Number(str)))
  }

  /** A key for the side question shown, if it takes it; a dismissed one is gone at once. */
  private sideKey(key: Key): boolean {
    if (!this.side || this.pasting || key.ctrl) return false
    const taken = this.side.key(key.name)
    if (taken === 'close') this.side = undefined
    return taken !== false
  }

  private cancel(chooser: Chooser<unknown>): boolean {
    chooser.resolve({ value: chooser.cancel })
    return true
  }

  private editorKey(str: string | undefined, key: Key): void {
    const e = this.editor
    if (key.ctrl && key.name === 'c') return this.ctrlC()
    this.exitArmedAt = 0
    if (key.ctrl && key.name === 'd') return e.text === '' ? this.actions?.exit() : e.deleteForward()
    if (key.name === 'escape') {
      if (this.busy) this.actions?.interrupt()
      else if (this.shell && e.text === '') this.shell = false
      return
    }
    if (this.shell && e.text === '' && key.name === 'backspace') return void (this.shell = false)
    if (!this.shell && e.text === '' && str === '!' && !key.ctrl && !key.meta && !this.pasting) return void (this.shell = true)
    if (key.name === 'tab' && key.shift) return this.actions ? this.actions.cycleMode() : void this.earlyModeCycles++
    // A pasted tab is indentation, not completion: four spaces, as Claude Code makes it.
    if (key.name === 'tab' && this.pasting) return e.insert(PASTED_TAB)
    if (key.name === 'tab') return void (this.shell || this.complete())
    // While the menu shows, ↑↓ pick from it; a command recalled from the history still walks the history.
    const picked = e.browsing || this.shell ? undefined : this.menu.current(e.text)
    if (picked && (key.name === 'up' || key.name === 'down')) return this.menu.move(e.text, key.name === 'up' ? -1 : 1)
    // Shift+Enter arrives as CSI u or modifyOtherKeys in terminals that tell it from Enter.
    const shiftEnter = key.sequence === '\u001b[13;2u' || key.sequence === '\u001b[27;2;13~' || (key.name === 'return' && key.shift)
    if (shiftEnter || key.name === 'enter' || (this.pasting && key.name === 'return')) return e.insert('\n')
    if (key.name === 'return') {
      if (e.text[e.caret - 1] === '\\') {
        e.backspace()
        return e.insert('\n')
      }
      // Enter on a partly typed command runs the one highlighted, as Tab then Enter would.
      // A lone `/` is not a pick: Enter there must not run whichever command sorts first.
      if (picked && !key.meta && e.text.length > 1) e.set(`/${picked.name}`)
      const text = e.take()
      if (this.shell) {
        this.shell = false
        return void (text.trim() && this.actions?.shell?.(text))
      }
      // A side question does not wait for the turn: it is asked now, beside it.
      const btw = /^\/btw(?:\s+([\s\S]*))?$/.exec(text.trim())
      if (btw && this.actions?.sideQuestion) return this.actions.sideQuestion(btw[1]?.trim() ?? '')
      if (text.trim()) this.submit(text, key.meta ? 'now' : text.trim().startsWith('/') && this.busy ? 'later' : 'next')
      return
    }
    if (key.name === 'up' || key.name === 'down') {
      if (key.name === 'up') e.up()
      else e.down()
      return this.recallShell()
    }
    this.edit(e, str, key)
  }

  /** A `!` command recalled from the history comes back in shell mode, without its `!`. */
  private recallShell(): void {
    const text = this.editor.text
    if (text.startsWith('!')) {
      this.shell = true
      this.editor.set(text.slice(1))
    } else if (this.editor.browsing) this.shell = false
  }

  /** The keys every text line shares. */
  private edit(e: Editor, str: string | undefined, key: Key): void {
    if (key.name === 'backspace') return e.backspace()
    if (key.name === 'delete') return e.deleteForward()
    if (key.name === 'left') return e.left()
    if (key.name === 'right') return e.right()
    if (key.name === 'home' || (key.ctrl && key.name === 'a')) return e.home()
    if (key.name === 'end' || (key.ctrl && key.name === 'e')) return e.end()
    if (key.ctrl && key.name === 'u') return e.killBack()
    if (key.ctrl && key.name === 'k') return e.killForward()
    if (key.ctrl && key.name === 'w') return e.killWord()
    if (key.ctrl || key.meta || !str) return
    // Keep printable text only: a stray escape sequence must not reach the prompt.
    const text = str.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, '')
    if (text) e.insert(text)
  }

  private ctrlC(): void {
    const now = Date.now()
    if (now - this.exitArmedAt < EXIT_WINDOW_MS) return this.actions?.exit()
    if (this.editor.text) this.editor.take()
    else if (this.busy) this.actions?.interrupt()
    this.exitArmedAt = now
    // The warning in the status line goes away with the window, key or no key.
    setTimeout(() => this.redraw(), EXIT_WINDOW_MS + 10).unref()
  }

  /** Tab: the highlighted command, ready for its arguments. */
  private complete(): void {
    const picked = this.menu.current(this.editor.text)
    if (picked) this.editor.set(`/${picked.name} `)
  }

  /** Ctrl+T: a chooser of the running background tasks; the one picked is stopped. */
  private pickTaskToStop(): void {
    if (this.tasks.length === 0) return void this.view.print(this.paint.dim('No background task is running.'))
    const choices = this.tasks.map((t) => ({ label: `${t.description} (${t.task_type === 'local_bash' ? 'shell' : 'agent'} ${t.task_id})`, value: t.task_id as string | null }))
    void this.choose<string | null>(['Stop which background task?'], choices, null).then(({ value }) => {
      if (value !== null) this.actions?.stopTask(value)
    })
  }

  /** The terminal was given back: nothing draws any more. */
  stop(): void {
    this.stopped = true
  }

  /**
   * Draws the state as it is now, then stops: the live region stays on screen after the session,
   * and a redraw still waiting (the prompt just sent, a spinner whose call ended) would never run,
   * since a session can end without the event loop turning over (`/exit` answered in microtasks).
   */
  finish(): void {
    // Leaving is done: no "press Ctrl+C again" stays behind.
    this.exitArmedAt = 0
    if (!this.stopped) this.draw()
    this.stop()
  }

  /** Coalesces redraws: many stream events in one tick draw once. */
  redraw(): void {
    if (this.redrawQueued || this.stopped) return
    this.redrawQueued = true
    setImmediate(() => {
      this.redrawQueued = false
      if (!this.stopped) this.draw()
    })
  }

  private draw(): void {
    const p = this.paint
    const width = this.screen.columns - 1
    const lines = [...this.view.liveLines(), ...this.pending.lines(p, width), ...(this.side?.lines(p, width) ?? [])]
    let caret: { row: number; col: number } | undefined
    const chooser = this.choosers[0]
    if (chooser) {
      lines.push(...chooser.lines(p, width))
      if (chooser.typing) {
        const v = this.reason.view(`${chooser.typing.withText}: `, width)
        caret = { row: lines.length + v.caret.row, col: v.caret.col }
        lines.push(...v.rows)
      }
    } else {
      // Shell mode shows in the marker and the rules, as Claude Code colours them.
      const rule = this.shell ? p.magenta('─'.repeat(width)) : p.dim('─'.repeat(width))
      lines.push(rule)
      const v = this.editor.view(this.shell ? '! ' : '› ', width)
      if (this.shell && v.rows[0]) v.rows[0] = p.magenta('!') + v.rows[0].slice(1)
      caret = { row: lines.length + v.caret.row, col: v.caret.col }
      lines.push(...v.rows)
      lines.push(rule)
      if (this.shell) lines.push(p.magenta('  ! for shell mode'))
      else if (!this.editor.browsing) lines.push(...this.menu.lines(this.editor.text, p, width))
    }
    // Beside the built-in line, not in its place, as Claude Code keeps its footer under a custom one.
    const indent = ' '.repeat(2 + (this.customStatus?.padding ?? 0))
    for (const line of this.customStatus?.lines ?? []) lines.push(p.dim(`${indent}${line}`))
    const status = this.statusLine()
    if (status) lines.push(status)
    this.screen.setLive(lines, caret)
  }

  private statusLine(): string {
    const p = this.paint
    if (this.exitArmedAt && Date.now() - this.exitArmedAt < EXIT_WINDOW_MS) return p.yellow('Press Ctrl+C again to exit')
    const t = this.view.totals
    // No session yet (the trust question comes first): nothing to report.
    if (!t.model) return ''
    const ctx = t.contextWindow > 0 ? `${Math.round((t.contextTokens / t.contextWindow) * 100)}% context` : '0% context'
    const mode = MODE_NAMES[this.mode] ?? this.mode
    const parts = [t.model, `⏵ ${mode}`, `$${t.costUsd.toFixed(4)}`, ctx]
    const n = this.tasks.length
    if (n > 0) parts.push(`${n} background task${n === 1 ? '' : 's'} (ctrl+t to stop)`)
    if (this.busy) parts.push('esc to interrupt')
    return p.dim(parts.join(' · '))
  }
}
