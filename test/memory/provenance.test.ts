import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { ProvenanceLog } from '../../runtime/trace-log.js'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

describe('provenance memory', () => {
  it('a record of a large tool result does not keep the result alive', () => {
    const log = new ProvenanceLog()
    gc()
    const before = process.memoryUsage().heapUsed
    // 40 results of 1 MB each; a record keeps 2,000 characters of each, cut from the whole.
    for (let i = 0; i < 40; i++) {
      const result = `round ${i}\n${'0123456789abcdef'.repeat(65_536)}`
      log.add({ mod: 'm', event: 'tool.call', kind: 'result', subject: `t${i}`, tool: 'Big', before: { result }, after: { result, text: result.slice(0, 2_500) }, at: i })
    }
    gc()
    const grown = process.memoryUsage().heapUsed - before
    expect(grown).toBeLessThan(4 * 1024 * 1024)
    expect(log.why('t39')).toEqual([expect.objectContaining({ before: { result: expect.stringMatching(/^round 39\n0123.*... \(1048585 chars\)$/) } })])
  })

  it('keeps the latest records within its character budget however many are added', () => {
    const log = new ProvenanceLog()
    const big = { result: 'x'.repeat(5_000) }
    for (let i = 0; i < 1_000; i++) log.add({ mod: 'm', event: 'tool.call', kind: 'result', subject: `t${i}`, before: big, after: { ...big, text: 'y' }, at: i })
    const kept = log.records
    expect(kept.reduce((n, r) => n + JSON.stringify(r).length, 0)).toBeLessThanOrEqual(256_000)
    expect(kept.at(-1)!.subject).toBe('t999')
    expect(log.why('t0')).toEqual([])
  })

  it('reads no value past the budget of a side: a getter there (the schema of a deferred tool) is not run for the record', () => {
    const log = new ProvenanceLog()
    let read = 0
    // The name and description before it spend the whole budget (4,000 characters a side, 2,000 a string).
    const tools = [{ name: 'n'.repeat(2_000), description: 'd'.repeat(2_000), get input_schema() { read++; return { type: 'object' } } }]
    log.add({ mod: 'm', event: 'model.request', kind: 'rewrite', subject: 'r', before: { tools }, after: { tools }, at: 0 })
    expect(log.why('r')).toHaveLength(1)
    expect(read).toBe(0)
  })
})
