import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { tuneHeapForLongSession, underWay } from '../../cli/heap.js'

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
  it('give a headless run its baseline and optimising compilers back, which its launch turned off', async () => {
    // A process launched as a `-p` run is (--max-opt=0, which also means --no-sparkplug --no-turbofan),
    // asking V8 to optimise a hot function: whether it could.
    const optimised = async (tuned: boolean) => {
      const script = `
        require(${JSON.stringify(`${root}bin/code-cache.cjs`)}).setLaunchFlags(['--max-opt=0'])
        import(${JSON.stringify(heapModule)}).then(({ tuneHeapForLongSession }) => {
          if (${tuned}) tuneHeapForLongSession({ ownsProcess: true })
          const f = new Function('n', 'let s = 0; for (let i = 0; i < n; i++) s += i; return s')
          eval('%PrepareFunctionForOptimization(f)'); f(10); f(10)
          eval('%OptimizeFunctionOnNextCall(f)'); f(10)
          console.log((eval('%GetOptimizationStatus(f)') & 16) !== 0)
        })`
      const { stdout } = await promisify(execFile)(process.execPath, ['--allow-natives-syntax', '-e', script])
      return stdout.trim()
    }
    expect(await optimised(false)).toBe('false')
    expect(await optimised(true)).toBe('true')
  })

  it('come once a headless session is under way (a tool round, a second answer), not for a one-turn answer', () => {
    const text = { message: { content: [{ type: 'text' }] } }
    const call = { message: { content: [{ type: 'text' }, { type: 'tool_use' }] } }
    expect([underWay(text, 0), underWay(call, 0), underWay(text, 1)]).toEqual([false, true, true])
  })

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
