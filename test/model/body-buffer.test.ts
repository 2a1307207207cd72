import { describe, expect, it } from 'vitest'
import { encodeBody } from '../../runtime/model/body-buffer.js'

const text = (n: number) => `{"messages":"${'héllo wörld 漢字 🙂 '.repeat(n)}"}`

describe('request bodies encoded into a kept buffer', () => {
  it('lends one buffer at a time, takes it back once sent, and drops it when a send failed', () => {
    const first = encodeBody(text(10))
    expect(first.bytes.equals(Buffer.from(text(10)))).toBe(true)
    // Lent: a second request at the same time gets memory of its own.
    const second = encodeBody(text(11))
    expect(second.bytes.buffer).not.toBe(first.bytes.buffer)
    expect(second.bytes.equals(Buffer.from(text(11)))).toBe(true)
    second.release(true)
    first.release(true)
    // Sent: the next body is written into the same memory.
    const third = encodeBody(text(12))
    expect(third.bytes.buffer).toBe(first.bytes.buffer)
    expect(third.bytes.equals(Buffer.from(text(12)))).toBe(true)
    // Not sent (an abort, an error): a write still queued may read it, so it is never lent again.
    third.release(false)
    const fourth = encodeBody(text(12))
    expect(fourth.bytes.buffer).not.toBe(third.bytes.buffer)
    fourth.release(true)
  })

  it('grows for a larger body, and a late release of an old lending leaves the new one lent', () => {
    const small = encodeBody(text(5))
    small.release(false)
    const big = encodeBody(text(20_000))
    expect(big.bytes.length).toBe(Buffer.byteLength(text(20_000)))
    expect(big.bytes.equals(Buffer.from(text(20_000)))).toBe(true)
    small.release(true)
    expect(encodeBody('{}').bytes.buffer).not.toBe(big.bytes.buffer)
    big.release(true)
    expect(encodeBody('{}').bytes.buffer).toBe(big.bytes.buffer)
  })
})
