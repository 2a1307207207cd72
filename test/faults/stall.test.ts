import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const stall = join(root, 'dist/runtime/stall.js')

// A drained event loop only happens in a process of its own: the test runner keeps its loop busy.
describe.runIf(existsSync(stall))('a run whose loop drains', () => {
  it('a wait on a promise nothing will settle ends as stalled instead of the process exiting mid-turn', async () => {
    const code = `import { unlessStalled, STALLED } from ${JSON.stringify(stall)}
const r = await unlessStalled(new Promise(() => {}))
console.log(r === STALLED ? 'stalled' : 'settled')
const s = await unlessStalled(Promise.resolve(7))
console.log(String(s), process.listenerCount('beforeExit'))`
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', code])
    expect(stdout).toBe('stalled\n7 0\n')
  })
})
