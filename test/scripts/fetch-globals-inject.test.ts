import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain .mjs script without types
import { FormData as LazyFormData, __lazyReadableStream as LazyReadableStream } from '../../scripts/fetch-globals-inject.mjs'

// The stand-ins the CLI bundle reads for globals Node loads on first touch (scripts/bundle.mjs):
// they must answer `instanceof` and `new` as the real globals do.
describe('the bundle\'s stand-in globals', () => {
  it('ReadableStream: a real stream is one, strings, objects and iterables are not, and `new` makes a real one', async () => {
    const real = new ReadableStream({ start(c) { c.enqueue('a'); c.close() } })
    expect(real instanceof LazyReadableStream).toBe(true)
    for (const other of ['text', {}, null, undefined, [1], new Uint8Array(1), (async function* () {})(), { getReader: 1 }]) {
      expect(other instanceof LazyReadableStream).toBe(false)
    }
    const made = new LazyReadableStream({ start(c: ReadableStreamDefaultController<string>) { c.enqueue('b'); c.close() } }) as ReadableStream<string>
    expect(made).toBeInstanceOf(ReadableStream)
    const { value } = await made.getReader().read()
    expect(value).toBe('b')
  })

  it('FormData: answers from the tag, and `new` makes a real one', () => {
    const form = new LazyFormData() as FormData
    expect(form).toBeInstanceOf(FormData)
    expect(new FormData() instanceof LazyFormData).toBe(true)
    expect({} instanceof LazyFormData).toBe(false)
  })
})
