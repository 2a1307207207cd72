import { describeError, ModloopError, type ErrorCode } from '../errors.js'
import type { Below, Invoke, Link } from './link.js'
import type { DispatchContext, FailureKind, HandlerFailure } from './types.js'
import { stepping, watch, unwatch, type Watched } from './watchdog.js'
import { lazySignal, makeNext, type NextSource } from './next-fn.js'
import { runIn } from './handler-scope.js'

export type Report = (failure: HandlerFailure) => void

const CATCH_GRACE_MS = 1_000

const CODES: Record<FailureKind, ErrorCode> = {
  throw: 'MODLOOP_ERR_HANDLER_THROW',
  timeout: 'MODLOOP_ERR_HANDLER_TIMEOUT',
  shape: 'MODLOOP_ERR_HANDLER_SHAPE',
  kind: 'MODLOOP_ERR_HANDLER_KIND',
}

/**
 * The isolation interceptor: every handler runs through here, with its event's kind enforced,
 * its own time metered, and its failure turned into the event's policy — skipped (what is
 * beneath runs in its place), kept (the result of its `next` stands), closed, or caught.
 */
export function isolate(link: Link, report: Report): Invoke {
  return (e, below, ctx) =>
    link.disposed
      ? below(e)
      : new Promise((resolve) => new Call(link, e, below, ctx, resolve, report).start())
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function'
}

/** Checks a rewrite against the catalog's pinned fields; returns the copy to pass down. */
export function checkRewrite(link: Link, e: any, e2: any): any {
  if (e2 === e) return e
  if (typeof e2 !== 'object' || e2 === null) {
    throw new ModloopError('MODLOOP_ERR_NEXT', `${link.mod}: ${link.event} next() needs the event object`, { mod: link.mod, event: link.event })
  }
  if (link.spec.kind === 'observe') return e
  const pinned = link.spec.pinned
  if (!pinned) return e2
  let copy = e2
  for (const field of pinned) {
    if (!(field in e2)) {
      if (field in e) copy = copy === e2 ? { ...e2, [field]: e[field] } : Object.assign(copy, { [field]: e[field] })
    } else if (e2[field] !== e[field]) {
      throw new ModloopError('MODLOOP_ERR_HANDLER_KIND', `${link.mod}: ${link.event} may not rewrite the pinned field "${field}"`, {
        mod: link.mod, event: link.event, field,
      })
    }
  }
  return copy
}

class Call implements Watched, NextSource {
  readonly budgetMs: number
  lentTo = 0
  lentCalls = 0
  lentIn = 0
  private own = 0
  private resumedAt = 0
  private pending = 0
  private called = false
  private last: Promise<unknown> | undefined
  // What the last next() rejected with, held to tell a failure passed up from beneath from the handler's own.
  private belowFailed: { error: unknown } | undefined
  private done = false
  private readonly aborter: ReturnType<typeof lazySignal>

  constructor(
    private readonly link: Link,
    private readonly e: any,
    private readonly below: Below,
    ctx: DispatchContext,
    private readonly resolve: (r: unknown) => void,
    private readonly report: Report,
  ) {
    this.budgetMs = link.budgetMs
    this.aborter = lazySignal(ctx.signal)
  }

  get event(): string {
    return this.link.event
  }

  get label(): string {
    return `${this.link.mod} (${this.link.event})`
  }

  get owner(): object {
    return this.link.$
  }

  signal(): AbortSignal {
    return this.aborter.signal()
  }

  start(): void {
    const now = performance.now()
    this.resumedAt = now
    watch(this, now)
    let r: unknown
    try {
      r = runIn(this.link.attributed ? this.link : undefined, this.link.handler, this.link.$, this.e, makeNext(this, (e2: unknown) => this.next(e2)))
    } catch (err) {
      this.fail('throw', err)
      return
    }
    if (isThenable(r)) r.then((v) => this.settle(v), (err) => this.fail('throw', err))
    else this.settle(r)
  }

  ownMs(now: number): number {
    return this.pending > 0 ? -1 : this.own + (now - this.resumedAt)
  }

  remainingMs(): number {
    if (this.budgetMs <= 0) return Infinity
    const own = this.pending > 0 ? this.own : this.own + (performance.now() - this.resumedAt)
    return Math.max(0, this.budgetMs - own)
  }

  pause(): void {
    if (this.pending++ === 0) this.own += performance.now() - this.resumedAt
  }

  resume(): void {
    if (--this.pending === 0) this.resumedAt = performance.now()
  }

  expire(): void {
    this.fail('timeout', new Error(`ran past its ${this.budgetMs} ms budget`))
  }

  private next(e2: unknown): Promise<unknown> {
    if (e2 === undefined) {
      return Promise.reject(new ModloopError('MODLOOP_ERR_NEXT', `${this.link.mod}: ${this.link.event} next() was called without the event`, {
        mod: this.link.mod, event: this.link.event,
      }))
    }
    // Once the handler's outcome is settled (it answered, failed or ran out of time), what is
    // beneath has run as that outcome says; a late next() would run it again — a tool twice.
    if (this.done) {
      return Promise.reject(new ModloopError('MODLOOP_ERR_NEXT', `${this.link.mod}: ${this.link.event} next() was called after the handler was done (it had returned, failed or timed out)`, {
        mod: this.link.mod, event: this.link.event,
      }))
    }
    let passed: unknown
    try {
      passed = checkRewrite(this.link, this.e, e2)
    } catch (err) {
      return Promise.reject(err)
    }
    this.called = true
    stepping(this)
    this.pause()
    const p = runIn(undefined, this.below, passed)
    this.last = p
    this.belowFailed = undefined
    p.then(() => this.resume(), (error: unknown) => {
      if (this.last === p) this.belowFailed = { error }
      this.resume()
    })
    return p
  }

  private finish(): boolean {
    if (this.done) return false
    this.done = true
    unwatch(this)
    this.aborter.release()
    return true
  }

  private settle(r: unknown): void {
    if (this.done) return
    const { spec } = this.link
    if (this.ownMs(performance.now()) > this.budgetMs) return this.expire()
    if (spec.kind === 'observe') {
      this.finish()
      this.resolve(this.called ? this.last : this.below(this.e))
      return
    }
    if (spec.kind === 'rewrite' && !this.called) {
      return this.fail('kind', new Error(`${this.link.event} handlers may rewrite but not answer: call next(e)`))
    }
    if (r === undefined || !spec.isResult(r)) {
      return this.fail('shape', new Error(r === undefined ? 'returned nothing' : `returned a result of the wrong shape for ${this.link.event}`))
    }
    this.finish()
    this.resolve(r)
  }

  private fail(kind: FailureKind, err: unknown): void {
    if (!this.finish()) return
    this.aborter.abort(err)
    // A handler that only passed on what its next() rejected with did not fail: the failure is
    // beneath it, and goes on up as it is. Reported here, it would be reported again by every
    // handler above, each naming itself.
    if (kind === 'throw' && this.called && this.belowFailed?.error === err && !this.link.catchHandler) {
      this.resolve(this.last)
      return
    }
    const { link } = this
    const message = `${link.mod}: ${link.event} handler ${kind === 'timeout' ? 'timed out' : 'failed'}: ${describeError(err)}`
    const failure = (outcome: HandlerFailure['outcome']): HandlerFailure => ({
      code: err instanceof ModloopError && kind === 'throw' ? err.code : CODES[kind],
      kind, mod: link.mod, event: link.event, message, error: err, outcome,
    })
    if (link.catchHandler) {
      this.report(failure('caught'))
      this.resolve(this.runCatch(kind, describeError(err)))
      return
    }
    if (this.called) {
      this.report(failure('kept'))
      this.resolve(this.last)
    } else if (link.failClosed && link.spec.policy === 'closable' && link.spec.failClosed) {
      this.report(failure('closed'))
      this.resolve(link.spec.failClosed(this.e, message))
    } else {
      this.report(failure('skipped'))
      this.resolve(this.below(this.e))
    }
  }

  /** The catch handler runs afresh with a replay-safe next and a short grace; nothing returned means "absent". */
  private async runCatch(kind: FailureKind, message: string): Promise<unknown> {
    const { link, e } = this
    let replay = this.last
    const next = makeNext({ event: link.event, budgetMs: CATCH_GRACE_MS, signal: () => this.signal() }, (e2: unknown) => {
      if (!replay) replay = this.below(checkRewrite(link, e, e2 ?? e))
      return replay
    })
    Object.assign(next, { error: { kind, message }, called: this.called })
    const absent = () => (this.called ? this.last : replay ?? this.below(e))
    let timer: NodeJS.Timeout | undefined
    try {
      const graceOver = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), CATCH_GRACE_MS)
      })
      const r = await Promise.race([Promise.resolve(link.catchHandler!(link.$, e, next)), graceOver])
      if (r !== undefined && link.spec.isResult(r)) return r
    } catch (err) {
      this.report({ code: 'MODLOOP_ERR_HANDLER_THROW', kind: 'throw', mod: link.mod, event: link.event, message: `${link.mod}: ${link.event} catch handler failed: ${describeError(err)}`, error: err, outcome: 'skipped' })
    } finally {
      clearTimeout(timer)
    }
    return absent()
  }
}
