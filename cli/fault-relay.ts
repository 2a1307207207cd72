import type { FaultFeed } from '../mods/terminal-ui/surface.js'

export interface FaultRelay {
  /** What the process guard writes to and stops through. */
  guard: { io: { stderr: { write(t: string): unknown } }; stop: (err: Error) => void }
  /** What the interactive surface listens to. */
  feed: FaultFeed
  /** Whether a fault asked to end the session. */
  readonly stopped: boolean
}

/**
 * Passes the process guard's reports and stops on to the interactive surface, which owns the
 * terminal: a line written to stderr under a live screen would be drawn over. Until the surface
 * listens (the trust question, the loading), reports go to stderr and a stop waits for it.
 */
export function faultRelay(stderr: { write(t: string): unknown }): FaultRelay {
  let show: ((text: string) => void) | undefined
  let stopSurface: ((err: Error) => void) | undefined
  let pending: Error | undefined
  let stopped = false
  return {
    guard: {
      io: { stderr: { write: (t: string) => (show ? show(t) : stderr.write(t)) } },
      stop: (err) => {
        stopped = true
        if (stopSurface) stopSurface(err)
        else pending ??= err
      },
    },
    feed: {
      listen(onShow, onStop) {
        show = onShow
        stopSurface = onStop
        if (pending) onStop(pending)
        pending = undefined
        return () => {
          show = undefined
          stopSurface = undefined
        }
      },
    },
    get stopped() {
      return stopped
    },
  }
}
