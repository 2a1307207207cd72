import type { Query } from '../../runtime/query.js'
import { describeError } from '../../core/errors.js'
import type { App } from './app.js'
import type { Paint } from './color.js'
import { renderMarkdown } from './markdown.js'
import { SPINNER } from './tool-view.js'

/** How many lines of an answer show at once: the rest scroll with Up and Down. */
const VISIBLE = 12

/**
 * A `/btw` side question drawn above the prompt: the question, a spinner while it is answered,
 * then the answer as markdown. Nothing of it reaches the scrollback: dismissed (Space, Enter or
 * Esc once answered; Esc while answering calls it off), it is gone, as Claude Code's overlay is.
 */
export class SidePanel {
  private answer: string[] | undefined
  private synthetic = false
  private top = 0
  private frame = 0

  constructor(readonly question: string, private readonly abort: AbortController) {}

  get answered(): boolean {
    return this.answer !== undefined
  }

  /** The answer came (null: the model said nothing); `redraw` once it is rendered. */
  async settle(response: string | null, synthetic: boolean, width: number, paint: Paint): Promise<void> {
    this.synthetic = synthetic
    const text = response ?? '(No answer came back.)'
    const rendered = await renderMarkdown(text, Math.max(20, width - 2), paint).catch(() => text)
    this.answer = rendered.replace(/\n+$/, '').split('\n')
  }

  /** A key while the panel shows; true when the panel took it (the prompt does not see it), `close` when it is to go. */
  key(name: string | undefined): 'close' | boolean {
    if (!this.answered) {
      if (name !== 'escape') return false
      this.abort.abort()
      return 'close'
    }
    if (name === 'escape' || name === 'return' || name === 'space') return 'close'
    if (name === 'up') this.top = Math.max(0, this.top - 1)
    else if (name === 'down') this.top = Math.min(Math.max(0, this.answer!.length - VISIBLE), this.top + 1)
    else return false
    return true
  }

  /** Moves the spinner on a frame (the terminal's redraw timer calls it while answering). */
  tick(): void {
    this.frame = (this.frame + 1) % SPINNER.length
  }

  lines(paint: Paint, width: number): string[] {
    const out = [paint.bold(`/btw ${oneLine(this.question, width - 5)}`)]
    if (!this.answer) {
      out.push(`  ${paint.cyan(SPINNER[this.frame]!)} ${paint.dim('Answering... (esc to cancel)')}`)
      return out
    }
    const shown = this.answer.slice(this.top, this.top + VISIBLE)
    out.push(...shown.map((l) => `  ${this.synthetic ? paint.dim(l) : l}`))
    const more = this.answer.length > VISIBLE ? ` · lines ${this.top + 1}-${this.top + shown.length} of ${this.answer.length}, up/down to scroll` : ''
    out.push(paint.dim(`  Space, Enter or Esc to dismiss · not added to the conversation${more}`))
    return out
  }
}

/**
 * The prompt sent while no turn ran, until it is in the conversation: a side question asked
 * meanwhile waits for it, since the conversation it asks about holds that prompt for the one who
 * just sent it. The session may still be starting, or its UserPromptSubmit hooks running. The
 * query's own askSideQuestion does not wait (an SDK hook that asked one would wait on itself).
 */
export class TurnStarting {
  private waiting: { done: Promise<void>; resolve(): void; taken: boolean } | undefined

  sent(): void {
    if (this.waiting) return
    let resolve!: () => void
    const done = new Promise<void>((r) => { resolve = r })
    this.waiting = { done, resolve, taken: false }
  }

  /** A turn took it (its prompt.submit). */
  taken(): void {
    if (this.waiting) this.waiting.taken = true
  }

  /** A turn started: the one that took it, its prompt now in the history. */
  started(): void {
    if (this.waiting?.taken) this.ended()
  }

  /** Its turn ended without starting (a hook dropped it, a local command ran), or the session did. */
  ended(): void {
    this.waiting?.resolve()
    this.waiting = undefined
  }

  get done(): Promise<void> {
    return this.waiting?.done ?? Promise.resolve()
  }
}

/**
 * Shows the side question above the prompt and asks it, once `before` settles; a new one takes
 * the place of the one shown (called off if it is still being answered). The spinner turns while
 * it is answered.
 */
export function showSideQuestion(app: App, q: Pick<Query, 'askSideQuestion'>, question: string, paint: Paint, before: Promise<void>): void {
  app.side?.key('escape')
  const abort = new AbortController()
  const panel = new SidePanel(question, abort)
  app.side = panel
  const spin = setInterval(() => { panel.tick(); app.redraw() }, 100)
  spin.unref()
  void before
    .then(() => q.askSideQuestion(question, { signal: abort.signal }))
    .then((a) => panel.settle(a.response, a.synthetic, app.width, paint))
    .catch((err: unknown) => panel.settle(`(The side question failed: ${describeError(err)})`, true, app.width, paint))
    .finally(() => {
      clearInterval(spin)
      app.redraw()
    })
  app.redraw()
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, Math.max(1, max - 3))}...` : flat
}
