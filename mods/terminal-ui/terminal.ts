import { App } from './app.js'
import { painter, type Paint } from './color.js'
import { readKeys } from './keys.js'
import { MessageView } from './message-view.js'
import { Screen } from './screen.js'
import type { TerminalIo } from './surface.js'

export interface Terminal {
  app: App
  view: MessageView
  paint: Paint
  /** Gives the terminal back: raw mode off, the live region left drawn (or erased with `erase`). */
  close(o?: { erase?: boolean }): Promise<void>
  /** Gives the terminal back at once, as far as it can, for an exit that cannot wait for `close`. */
  restore(): void
}

/** Takes the terminal: raw keys into the App, bracketed paste, a ticker for spinners, redraw on resize. */
export function openTerminal(io: TerminalIo): Terminal {
  const paint = painter(io.env)
  const screen = new Screen(io.stdout)
  const app = new App(screen, paint, new MessageView(screen, paint, () => app.redraw()))
  const view = app.view
  const onResize = () => app.redraw()
  io.stdin.setRawMode(true)
  const stopKeys = readKeys(io.stdin, (str, key, early) => app.onKey(str, key, early))
  io.stdin.resume()
  io.stdout.on('resize', onResize)
  // Bracketed paste: a pasted newline is text, not Enter.
  io.stdout.write('\u001b[?2004h')
  const ticker = setInterval(() => {
    if (!app.busy && !view.busyWithTools) return
    view.tick()
    app.redraw()
  }, 100)
  return {
    app, view, paint,
    restore: () => {
      app.stop()
      try {
        io.stdin.setRawMode(false)
        io.stdout.write('\n\u001b[?2004l\u001b[?25h')
      } catch {
        // The terminal is gone (a hangup): nothing to give back.
      }
    },
    close: async (o = {}) => {
      clearInterval(ticker)
      await view.settled()
      app.finish()
      stopKeys()
      io.stdout.off('resize', onResize)
      io.stdin.setRawMode(false)
      io.stdin.pause()
      if (o.erase) screen.setLive([])
      screen.release()
      io.stdout.write('\u001b[?2004l')
    },
  }
}
