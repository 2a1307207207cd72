/**
 * Request bodies are encoded into one buffer kept from request to request. Given the string,
 * node:http would encode it into fresh memory for every request, and on machines where the first
 * touch of a page costs ~11 µs (virtual machines) a 300 KB conversation paid ~0.8 ms a round for
 * that memory alone. The buffer is lent to one request at a time, until its bytes are handed to
 * the socket; a request made while it is lent, or a body past the cap, gets a buffer of its own.
 */
// Past this a request gets memory of its own, as before: a conversation of images (several MB of
// base64 a request) does not leave the process holding as much for the rest of its life.
const CAP = 4 << 20
const FIRST = 64 << 10
let kept: Buffer | undefined
let lent = false

export interface EncodedBody {
  bytes: Buffer
  /** `sent`: the socket has taken every byte, so the buffer may be lent again. Otherwise (an error, an abort) it is dropped: a write still queued may read it. */
  release(sent: boolean): void
}

export function encodeBody(body: string): EncodedBody {
  const size = Buffer.byteLength(body)
  if (lent || size > CAP) return { bytes: Buffer.from(body), release: noop }
  if (!kept || kept.length < size) kept = Buffer.allocUnsafeSlow(Math.max(FIRST, 2 ** Math.ceil(Math.log2(size))))
  const buffer = kept
  buffer.write(body, 0, size, 'utf8')
  lent = true
  let out = true
  return {
    bytes: buffer.subarray(0, size),
    release(sent) {
      if (!out) return
      out = false
      if (kept !== buffer) return
      if (!sent) kept = undefined
      lent = false
    },
  }
}

function noop(): void {}
