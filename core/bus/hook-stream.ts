import type { HookStream } from './types.js'

/** Wraps a generator so its final result is also readable as `.result` once it has been drained. */
export function toHookStream<C, R>(source: AsyncGenerator<C, R, undefined>): HookStream<C, R> {
  let settle!: (r: R) => void
  let fail!: (err: unknown) => void
  const result = new Promise<R>((resolve, reject) => {
    settle = resolve
    fail = reject
  })
  result.catch(() => {})
  async function* drain(): AsyncGenerator<C, R, undefined> {
    try {
      const r = yield* source
      settle(r)
      return r
    } catch (err) {
      fail(err)
      throw err
    } finally {
      fail(new Error('the stream was closed before it ended'))
    }
  }
  const stream = drain() as HookStream<C, R>
  Object.defineProperty(stream, 'result', { value: result })
  return stream
}
