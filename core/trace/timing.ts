import type { TapWrapper } from '../bus/taps.js'
import type { EventName } from '../events/catalog.js'

export interface TraceEntry {
  mod: string
  event: EventName
  /** Wall time from the handler's start to its settling (a streaming handler's: to its stream's result). */
  ms: number
  outcome: 'returned' | 'threw'
}

export type TraceListener = (entry: TraceEntry) => void

/** The register interceptor that times every handler; with no listener it costs one length check a call. */
export function timingInterceptor(listeners: () => readonly TraceListener[]): TapWrapper {
  return (tap) => {
    const { link, invoke, stream } = tap
    const report = (start: number, outcome: TraceEntry['outcome']) => {
      const entry: TraceEntry = { mod: link.mod, event: link.event, ms: performance.now() - start, outcome }
      for (const listen of listeners()) listen(entry)
    }
    return {
      ...tap,
      invoke: (e, below, ctx) => {
        if (listeners().length === 0) return invoke(e, below, ctx)
        const start = performance.now()
        const p = invoke(e, below, ctx)
        p.then(() => report(start, 'returned'), () => report(start, 'threw'))
        return p
      },
      stream: (e, below, ctx) => {
        if (listeners().length === 0) return stream(e, below, ctx)
        const start = performance.now()
        const s = stream(e, below, ctx)
        s.result.then(() => report(start, 'returned'), () => report(start, 'threw'))
        return s
      },
    }
  }
}
