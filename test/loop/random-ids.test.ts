import { describe, expect, it } from 'vitest'
import { fillRandom, nodeCrypto, randomHex, uuid } from '../../core/random.js'

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('ids without node:crypto', () => {
  it('uuid() gives version 4 UUIDs in randomUUID\'s form, all different across pool refills', () => {
    // 64 ids a pool: 1,000 ids read it 16 times over.
    const ids = Array.from({ length: 1_000 }, () => uuid())
    for (const id of ids) expect(id).toMatch(V4)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('randomHex(n) gives n bytes as hex, larger than the pool too', () => {
    expect(randomHex(8)).toMatch(/^[0-9a-f]{16}$/)
    expect(randomHex(4)).toMatch(/^[0-9a-f]{8}$/)
    expect(randomHex(2_000)).toMatch(/^[0-9a-f]{4000}$/)
    expect(randomHex(8)).not.toBe(randomHex(8))
  })

  it('fills from node:crypto where the kernel device cannot be read', () => {
    const a = new Uint8Array(64)
    const b = new Uint8Array(64)
    fillRandom(a, '/nonexistent/urandom')
    fillRandom(b, '/nonexistent/urandom')
    expect(a.some((x) => x !== 0)).toBe(true)
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false)
  })

  it('fills from the device given', () => {
    // /dev/zero stands in for a device whose bytes we know.
    const a = new Uint8Array(32).fill(7)
    fillRandom(a, '/dev/zero')
    expect([...a]).toEqual(new Array(32).fill(0))
  })

  it('nodeCrypto() is node:crypto, loaded once', () => {
    expect(nodeCrypto()).toBe(nodeCrypto())
    expect(nodeCrypto().createHash('sha1').update('x').digest('hex')).toBe('11f6ad8ec52a2984abaafd7c3b516503785c2072')
  })
})
