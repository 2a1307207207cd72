import { describe, expect, it } from 'vitest'
import { runScript, toolsMod } from './helpers.js'

/** The most Wait calls running at once, from the tools' start/end log. */
function peakOverlap(log: string[]): number {
  let running = 0
  let peak = 0
  for (const line of log) {
    running += line.startsWith('start ') ? 1 : -1
    peak = Math.max(peak, running)
  }
  return peak
}

const waits = (n: number) => [{ reply: Array.from({ length: n }, (_, i) => ({ tool_use: { name: 'Wait', input: { ms: 120, label: `w${i}` } } })) }, { reply: 'done' }]

describe('the read-only concurrency cap', () => {
  it('comes from the query\'s env: CLAUDE_CODE_MAX_TOOL_USE_CONCURRENCY=2 lets at most 2 read-only calls overlap', async () => {
    const log: string[] = []
    const run = await runScript(waits(5), 'go', { mods: [toolsMod(log)], env: { CLAUDE_CODE_MAX_TOOL_USE_CONCURRENCY: '2' } })
    expect(run.result).toMatchObject({ subtype: 'success', result: 'done' })
    expect(log).toHaveLength(10)
    expect(peakOverlap(log)).toBe(2)
  })

  it('MODLOOP_MAX_TOOL_USE_CONCURRENCY in the query\'s env wins over the Claude Code name; without either all five overlap', async () => {
    const capped: string[] = []
    await runScript(waits(5), 'go', { mods: [toolsMod(capped)], env: { MODLOOP_MAX_TOOL_USE_CONCURRENCY: '1', CLAUDE_CODE_MAX_TOOL_USE_CONCURRENCY: '4' } })
    expect(peakOverlap(capped)).toBe(1)
    const free: string[] = []
    await runScript(waits(5), 'go', { mods: [toolsMod(free)] })
    expect(peakOverlap(free)).toBe(5)
  })
})
