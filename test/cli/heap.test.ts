import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { tuneHeapForLongSession } from '../../cli/heap.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const heapModule = `${root}dist/cli/heap.js`

/** The young generation's size after a churn of short-lived strings, in a fresh process. */
async function youngGenerationMb(tuned: boolean): Promise<number> {
  const script = `
    const { tuneHeapForLongSession } = await import(${JSON.stringify(heapModule)})
    if (${tuned}) tuneHeapForLongSession({ ownsProcess: true })
    const keep = []
    for (let i = 0; i < 20000; i++) { keep.push('x'.repeat(1000) + i); if (keep.length > 2000) keep.shift() }
    const { getHeapSpaceStatistics } = await import('node:v8')
    console.log(getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1048576)`
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script])
  return Number(stdout)
}

describe('V8 settings for long sessions', () => {
  it('are left alone in a process the CLI does not own (a test, an embedding application)', () => {
    expect(tuneHeapForLongSession({})).toBe(false)
    expect(tuneHeapForLongSession({ ownsProcess: false })).toBe(false)
  })

  it.runIf(existsSync(heapModule))('keep the young generation at its start size where V8 would grow it', async () => {
    const [tuned, plain] = await Promise.all([youngGenerationMb(true), youngGenerationMb(false)])
    expect(plain).toBeGreaterThan(tuned)
    expect(tuned).toBeLessThanOrEqual(2)
  })
})
