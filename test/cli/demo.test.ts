import { describe, expect, it } from 'vitest'
import { main } from '../../cli/main.js'

describe('the offline demo (npm start)', () => {
  it('fixes the failing test through the real loop and tools, with a scripted model', async () => {
    let out = ''
    let err = ''
    const code = await main(['demo'], { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) }, cwd: process.cwd(), env: {} })
    expect(err).toBe('')
    expect(code).toBe(0)
    expect(out).toContain('2 of 3 tests failed')
    expect(out).toContain('● Edit(')
    expect(out).toContain('all 3 tests passed')
    expect(out).toMatch(/— success · 5 model turns · \$\d+\.\d{4} · /)
  })
})
