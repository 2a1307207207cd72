import type { HookStream } from './types.js'

/** Wraps a generator so its final result is also readable as `.result` once it has been drained. */
export function toHookStream<C, R>(source: AsyncGenerator<C, R, undefined>): HookStream<C, R> {
  return new ResultStream(source)
}

/**
 * A stream that settles `.result` itself, as a plain object: every chunk of a streaming event
 * passes through one per handler and one beneath them, and an object forwarding `next` costs a
 * chunk one promise where a wrapping async generator cost several (~20% of a tool round's
 * streaming while the code is cold).
 */
export abstract class SettlingStream<C, R> implements HookStream<C, R> {
  readonly result: Promise<R>
  protected settle!: (r: R) => void
  protected fail!: (err: unknown) => void

  constructor() {
    this.result = new Promise<R>((resolve, reject) => {
      this.settle = resolve
      this.fail = reject
    })
    this.result.catch(() => {})
  }

  abstract next(): Promise<IteratorResult<C, R>>
  abstract return(value: R | PromiseLike<R>): Promise<IteratorResult<C, R>>
  abstract throw(err: unknown): Promise<IteratorResult<C, R>>

  [Symbol.asyncIterator](): this {
    return this
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.return(undefined as R)
  }
}

/** A generator as a stream whose result settles as it ends: with the value it returned, with what it threw, or as closed when it was closed before its end. */
export class ResultStream<C, R> extends SettlingStream<C, R> {
  constructor(private readonly source: AsyncGenerator<C, R, undefined>) {
    super()
  }

  next(): Promise<IteratorResult<C, R>> {
    return this.track(this.source.next())
  }

  return(value: R | PromiseLike<R>): Promise<IteratorResult<C, R>> {
    this.fail(closedEarly())
    return this.source.return(value)
  }

  throw(err: unknown): Promise<IteratorResult<C, R>> {
    return this.track(this.source.throw(err))
  }

  private track(step: Promise<IteratorResult<C, R>>): Promise<IteratorResult<C, R>> {
    return step.then((s) => {
      if (s.done) this.settle(s.value)
      return s
    }, (err: unknown) => {
      this.fail(err)
      throw err
    })
  }
}

export function closedEarly(): Error {
  return new Error('the stream was closed before it ended')
}
