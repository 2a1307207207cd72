import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import bash from '../../mods/bash/index.js'
import { openTools, tempDir, type Tools } from './harness.js'

let tmp: Awaited<ReturnType<typeof tempDir>>
let tools: Tools
beforeAll(async () => {
  tmp = await tempDir()
  tools = await openTools(tmp.dir, [[bash, { maxTimeoutMs: 300 }]])
})
afterAll(async () => {
  await tools.close()
  await tmp.remove()
})

describe('Bash maxTimeoutMs', () => {
  it('clamps a longer requested timeout to the maximum', async () => {
    // Asked for 60 s, past the test's own timeout: the call ending at all is the clamp at work.
    const r = await tools.call('Bash', { command: 'echo started; sleep 60', timeout: 60_000 })
    expect(r).toMatchObject({ isError: true, result: { timedOut: true, interrupted: true, stdout: 'started\n' } })
    expect(r.text).toBe('started\nCommand timed out after 300 ms and was stopped.')
  })

  it('clamps the default timeout too', async () => {
    const r = await tools.call('Bash', { command: 'sleep 10' })
    expect(r.text).toBe('Command timed out after 300 ms and was stopped.')
  })

  it('the description tells the model the maximum', () => {
    expect(tools.session.tools.get('Bash')!.description).toContain('at most 300 ms')
  })
})
