import type * as CryptoModule from 'node:crypto'
import { closeSync, openSync, readSync } from 'node:fs'
import { createRequire } from 'node:module'

let crypto: typeof CryptoModule | undefined

/**
 * node:crypto, loaded on first use. With the fourteen modules it brings it costs a cold start
 * ~3 ms, and a run that reads, edits and hashes nothing (a one-turn `-p`) needs none of it: ids
 * come from the pool below. Hashes (transcript folder names, Read's file stamps, checkpoints,
 * trust keys) load it when they are first taken.
 */
export function nodeCrypto(): typeof CryptoModule {
  crypto ??= createRequire(import.meta.url)('node:crypto') as typeof CryptoModule
  return crypto
}

// Random bytes read ahead from the kernel's generator, as node:crypto's randomUUID keeps its own
// batch: one read serves 64 ids.
const POOL_BYTES = 1024
const pool = Buffer.alloc(POOL_BYTES)
let used = POOL_BYTES

/**
 * Fills `into` from `device` (the kernel's CSPRNG); where it cannot be read (Windows, a sandbox
 * without /dev), from node:crypto. Either way the bytes are cryptographically random.
 */
export function fillRandom(into: Uint8Array, device = '/dev/urandom'): void {
  let fd: number | undefined
  try {
    fd = openSync(device, 'r')
    for (let at = 0; at < into.length;) {
      const n = readSync(fd, into, at, into.length - at, null)
      if (n <= 0) throw new Error(`${device} gave no bytes`)
      at += n
    }
  } catch {
    nodeCrypto().randomFillSync(into)
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/** `n` random bytes, as a view of the pool that is valid until the next call. */
function take(n: number): Buffer {
  if (n > POOL_BYTES) {
    const own = Buffer.alloc(n)
    fillRandom(own)
    return own
  }
  if (used + n > POOL_BYTES) {
    fillRandom(pool)
    used = 0
  }
  used += n
  return pool.subarray(used - n, used)
}

/** A random (version 4) UUID, as `crypto.randomUUID()` gives: session, message and prompt ids. */
export function uuid(): string {
  const b = take(16)
  b[6] = (b[6]! & 0x0f) | 0x40
  b[8] = (b[8]! & 0x3f) | 0x80
  const h = b.toString('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

/** `bytes` random bytes as hex: agent and task ids, temporary file names. */
export function randomHex(bytes: number): string {
  return take(bytes).toString('hex')
}
