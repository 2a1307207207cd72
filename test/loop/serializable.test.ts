import { describe, expect, it } from 'vitest'
import { whyUnserializable } from '../../core/tools/serializable.js'

const circular: Record<string, unknown> = { a: 1 }
circular.self = { back: circular }
const shared = { x: 1 }
const cases: [string, unknown][] = [
  ['a string', 'text'],
  ['undefined', undefined],
  ['a file result', { type: 'text', file: { filePath: '/a', content: 'x'.repeat(100_000), numLines: 1 } }],
  ['the same object twice (not a cycle)', { one: shared, two: [shared, shared] }],
  ['a Date and a Map', { when: new Date(0), map: new Map([[1, 2]]) }],
  ['functions and symbols (dropped)', { f: () => 1, s: Symbol('s') }],
  ['a cycle', circular],
  ['a cycle through an array', (() => { const a: unknown[] = []; a.push({ a }); return a })()],
  ['a BigInt deep inside', { a: [{ b: 1n }] }],
  ['a toJSON that throws', { v: { toJSON: () => { throw new Error('no') } } }],
  ['a toJSON that hides a cycle', { v: { toJSON: () => 'fine', loop: circular } }],
]

describe('whyUnserializable', () => {
  it.each(cases)('agrees with JSON.stringify on %s', (_name, value) => {
    let thrown: string | undefined
    try {
      JSON.stringify(value)
    } catch (err) {
      thrown = (err as Error).message
    }
    const why = whyUnserializable(value)
    expect(why === undefined).toBe(thrown === undefined)
    if (thrown) expect(thrown).toContain(why!.split(' ')[0])
  })
})
