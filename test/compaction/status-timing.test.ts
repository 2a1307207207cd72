import { describe, expect, it } from 'vitest'
import { query } from '../../entry.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { toolsMod } from '../loop/helpers.js'
import { big, bigTool, compactionWith, summary } from './helpers.js'

const SUMMARY_DELAY_MS = 1_500

describe('system/status compacting', () => {
  it('arrives while the summary is being written, before its request completes', async () => {
    const server = await startFakeAnthropic({ script: [big('r1'), big('r2'), big('r3'), { ...summary('SUMMARY'), delayMs: SUMMARY_DELAY_MS }, { reply: 'done' }] })
    const seen: { kind: string; at: number }[] = []
    try {
      const q = query({
        prompt: 'go',
        options: {
          bare: true, cwd: process.cwd(), mods: [toolsMod(), bigTool, compactionWith({ thresholdTokens: 5_000, keepRecentFraction: 0, microcompact: false })],
          env: { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test' },
        },
      })
      for await (const m of q) {
        const kind = m.type === 'system' ? `${m.subtype}${m.subtype === 'status' ? `:${String((m as any).compact_result ?? (m as any).status)}` : ''}` : m.type
        seen.push({ kind, at: performance.now() })
      }
    } finally {
      await server.close()
    }
    const compacting = seen.find((s) => s.kind === 'status:compacting')!
    const boundary = seen.find((s) => s.kind === 'compact_boundary')!
    expect(compacting).toBeDefined()
    expect(boundary).toBeDefined()
    // Yielded before the delayed summary came back, not together with the boundary.
    expect(boundary.at - compacting.at).toBeGreaterThan(SUMMARY_DELAY_MS * 0.8)
    expect(seen.at(-1)!.kind).toBe('result')
  })
})
