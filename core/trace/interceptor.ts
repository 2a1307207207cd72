import type { Below, Invoke, Link, StreamBelow, StreamInvoke } from '../bus/link.js'
import type { TapWrapper } from '../bus/taps.js'
import { isDenial, sameShallow, subjectOf, type ProvenanceRecord } from './record.js'

export type ProvenanceSink = (record: ProvenanceRecord) => void

const NONE = Symbol('none')

/** The register interceptor that records what handlers changed; with no sink it costs one length check a call. */
export function provenanceInterceptor(sinks: () => readonly ProvenanceSink[]): TapWrapper {
  return (tap) => (tap.link.spec.stream
    ? { ...tap, stream: provenanceStream(tap.link, tap.stream, sinks) }
    : { ...tap, invoke: provenanceInvoke(tap.link, tap.invoke, sinks) })
}

/**
 * Wraps one handler so that what it changed is recorded: the event it passed to `next` against
 * the one it got, and its result against the one beneath it. With no sink listening the wrapper
 * only reads an array's length, so the cost stays with those who read the trace.
 */
export function provenanceInvoke(link: Link, invoke: Invoke, sinks: () => readonly ProvenanceSink[]): Invoke {
  return (e, below, ctx) => {
    if (sinks().length === 0) return invoke(e, below, ctx)
    let passed: unknown = NONE
    let beneath: unknown = NONE
    const spy: Below = (e2) => {
      passed = e2
      // A rewrite is recorded as it goes down, a result as it comes back up: the order they happened.
      if (!sameShallow(e2, e)) emit(sinks, { ...base(link, e), kind: 'rewrite', before: e, after: e2 })
      const p = below(e2)
      p.then((r) => { beneath = r }, () => {})
      return p
    }
    const p = invoke(e, spy, ctx)
    p.then((r) => {
      const record = settled(link, e, passed, beneath, r)
      if (record) emit(sinks, record)
    }, () => {})
    return p
  }
}

/**
 * The streaming form (`turn.step`): a changed event passed to `next` is a rewrite, recorded as it
 * goes down; a handler that ends without ever calling `next` answered, recorded with its result.
 * Chunks a handler rewrites on their way up are not recorded.
 */
export function provenanceStream(link: Link, stream: StreamInvoke, sinks: () => readonly ProvenanceSink[]): StreamInvoke {
  return (e, below, ctx) => {
    if (sinks().length === 0) return stream(e, below, ctx)
    let called = false
    const spy: StreamBelow = (e2) => {
      called = true
      if (!sameShallow(e2, e)) emit(sinks, { ...base(link, e), kind: 'rewrite', before: e, after: e2 })
      return below(e2)
    }
    const s = stream(e, spy, ctx)
    s.result.then((r) => {
      if (!called) emit(sinks, { ...base(link, e), kind: isDenial(r) ? 'deny' : 'answer', before: e, after: r })
    }, () => {})
    return s
  }
}

function settled(link: Link, e: unknown, passed: unknown, beneath: unknown, r: unknown): ProvenanceRecord | undefined {
  if (passed === NONE) return { ...base(link, e), kind: isDenial(r) ? 'deny' : 'answer', before: e, after: r }
  if (beneath === NONE || sameShallow(beneath, r)) return undefined
  return { ...base(link, e), kind: isDenial(r) && !isDenial(beneath) ? 'deny' : 'result', before: beneath, after: r }
}

function emit(sinks: () => readonly ProvenanceSink[], record: ProvenanceRecord): void {
  for (const sink of sinks()) sink(record)
}

function base(link: Link, e: unknown): Omit<ProvenanceRecord, 'kind' | 'before' | 'after'> {
  const tool = (e as { tool?: unknown })?.tool
  return { mod: link.mod, event: link.event, subject: subjectOf(link.event, e), at: Date.now(), ...(typeof tool === 'string' ? { tool } : {}) }
}
