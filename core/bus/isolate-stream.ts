import { describeError } from '../errors.js'
import { closedEarly, SettlingStream, toHookStream } from './hook-stream.js'
import { checkRewrite, type Report } from './isolate.js'
import type { Link, StreamBelow, StreamInvoke } from './link.js'
import type { DispatchContext, FailureKind, HookStream } from './types.js'
import { stepping, watch, unwatch, type Watched } from './watchdog.js'
import { lazySignal, makeNext } from './next-fn.js'

const EXPIRED = Symbol('expired')

/**
 * Streaming handlers (`turn.step`) are async generators. Their budget counts only while their
 * own code runs — never at a yield, never while they read what is beneath. A handler that fails
 * mid-stream is dropped: the rest of the stream comes from beneath it, chunks already yielded stay.
 */
export function isolateStream(link: Link, report: Report): StreamInvoke {
  return (e, below, ctx) => (link.disposed ? below(e) : toHookStream(run(link, e, below, ctx, report)))
}

async function* run(link: Link, e: any, below: StreamBelow, ctx: DispatchContext, report: Report): AsyncGenerator<unknown, unknown, undefined> {
  const meter = new Meter(link.budgetMs, `${link.mod} (${link.event})`, link.$)
  let opened: HookStream<unknown, unknown> | undefined
  let drained: { result: unknown } | undefined
  // An error from beneath that the handler lets through is not the handler's failure: it goes on up.
  let belowError: { err: unknown } | undefined
  /** The rest of what is beneath: a drained stream's result, else its remaining chunks. */
  async function* rest(): AsyncGenerator<unknown, unknown, undefined> {
    if (!opened) return yield* below(e)
    if (drained) return drained.result
    return yield* opened
  }
  const fallback = (kind: FailureKind, err: unknown) => {
    report({
      code: kind === 'timeout' ? 'MODLOOP_ERR_HANDLER_TIMEOUT' : kind === 'shape' ? 'MODLOOP_ERR_HANDLER_SHAPE' : 'MODLOOP_ERR_HANDLER_THROW',
      kind, mod: link.mod, event: link.event, error: err, outcome: opened ? 'kept' : 'skipped',
      message: `${link.mod}: ${link.event} handler ${kind === 'timeout' ? 'timed out' : 'failed'}: ${describeError(err)}`,
    })
    return rest()
  }
  const aborter = lazySignal(ctx.signal)
  const next = makeNext({ event: link.event, budgetMs: link.budgetMs, signal: aborter.signal }, (e2: unknown) => {
    const stream = meter.paused(below(checkRewrite(link, e, e2 ?? e)), (err) => { belowError = { err } })
    opened = stream
    drained = undefined
    stream.result.then((result) => {
      if (opened === stream) drained = { result }
    }, () => {})
    return stream
  })

  let gen: AsyncGenerator<unknown, unknown, undefined>
  try {
    gen = link.handler(link.$, e, next)
    if (!gen || typeof gen[Symbol.asyncIterator] !== 'function') throw new Error(`${link.event} handlers must be async generators`)
  } catch (err) {
    aborter.release()
    return yield* fallback('throw', err)
  }
  meter.start()
  try {
    for (;;) {
      let step: IteratorResult<unknown, unknown> | typeof EXPIRED
      try {
        step = await meter.race(gen.next())
      } catch (err) {
        if (belowError && belowError.err === err) throw err
        return yield* fallback('throw', err)
      }
      if (step === EXPIRED) {
        aborter.abort(new Error(`${link.mod}: ${link.event} handler ran past its budget`))
        void gen.return(undefined).catch(() => {})
        return yield* fallback('timeout', new Error(`ran past its ${link.budgetMs} ms budget`))
      }
      if (step.done) {
        if (step.value !== undefined && link.spec.isResult(step.value)) return step.value
        if (step.value === undefined && opened) return yield* rest()
        return yield* fallback('shape', new Error('returned no result and never called next'))
      }
      meter.pause()
      yield step.value
      meter.resume()
    }
  } finally {
    meter.stop()
    aborter.release()
  }
}

/** Own-time meter of one streaming handler, watched by the shared watchdog. */
class Meter implements Watched {
  lentTo = 0
  lentCalls = 0
  lentIn = 0
  private own = 0
  private resumedAt = 0
  private stopped = 1
  private onExpire: (() => void) | undefined

  constructor(readonly budgetMs: number, readonly label: string, readonly owner: object) {}

  start(): void {
    this.stopped = 0
    this.resumedAt = performance.now()
    watch(this, this.resumedAt)
  }

  stop(): void {
    unwatch(this)
  }

  pause(): void {
    if (this.stopped++ === 0) this.own += performance.now() - this.resumedAt
  }

  resume(): void {
    if (--this.stopped === 0) this.resumedAt = performance.now()
  }

  ownMs(now: number): number {
    return this.stopped > 0 ? -1 : this.own + (now - this.resumedAt)
  }

  expire(): void {
    this.onExpire?.()
  }

  race<T>(p: Promise<T>): Promise<T | typeof EXPIRED> {
    return new Promise((resolve, reject) => {
      this.onExpire = () => resolve(EXPIRED)
      p.then(resolve, reject)
    })
  }

  /** Wraps what is beneath so the clock stops while the handler waits on it. */
  paused<C, R>(inner: HookStream<C, R>, onError: (err: unknown) => void): HookStream<C, R> {
    return new PausedStream(this, inner, onError)
  }
}

/**
 * What is beneath a streaming handler, as the handler reads it: the handler's clock stops while it
 * waits for each chunk, and an error from beneath is noted as not the handler's own. Closing it
 * leaves what is beneath as it is (the handler is done with it; `rest` may still read it on).
 */
class PausedStream<C, R> extends SettlingStream<C, R> {
  private ended = false

  constructor(private readonly meter: Meter, private readonly inner: HookStream<C, R>, private readonly onError: (err: unknown) => void) {
    super()
  }

  async next(): Promise<IteratorResult<C, R>> {
    if (this.ended) return { done: true, value: undefined as R }
    stepping(this.meter)
    this.meter.pause()
    let step: IteratorResult<C, R>
    try {
      step = await this.inner.next()
    } catch (err) {
      this.onError(err)
      this.end(err)
      throw err
    } finally {
      this.meter.resume()
    }
    if (step.done) {
      this.ended = true
      this.settle(step.value)
    }
    return step
  }

  async return(value: R | PromiseLike<R>): Promise<IteratorResult<C, R>> {
    this.end(closedEarly())
    return { done: true, value: await value }
  }

  async throw(err: unknown): Promise<IteratorResult<C, R>> {
    this.end(err)
    throw err
  }

  private end(err: unknown): void {
    this.ended = true
    this.fail(err)
  }
}
