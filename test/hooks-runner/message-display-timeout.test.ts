import { describe, expect, it } from 'vitest'
import { defaultTimeoutSeconds } from '../../hooks-runner/index.js'
import { cmd, fire, group } from './helpers.js'

describe('MessageDisplay timeouts (spec §2.8: 10 s by default)', () => {
  it('a command, http or mcp_tool handler defaults to 10 s; its own timeout still wins', () => {
    for (const type of ['command', 'http', 'mcp_tool'] as const) expect(defaultTimeoutSeconds('MessageDisplay', type)).toBe(10)
    expect(defaultTimeoutSeconds('Notification', 'command')).toBe(600)
  })

  it('a hook that hangs is killed after 10 s and shows nothing in place of the text (fails open)', async () => {
    const r = await fire('MessageDisplay', { turn_id: 't', message_id: 'm', index: 0, final: true, delta: 'text' }, group('MessageDisplay', [cmd('sleep 30')]))
    const rec = r.records[0]!
    expect(rec).toMatchObject({ outcome: 'timeout', errorCode: 'HOOKS_ERR_TIMEOUT' })
    expect(rec.message).toContain('timed out after 10 s')
    // Not before its 10 s (a lower bound only); the hook would sleep 30 s, past the test's own timeout, so settling means it was killed.
    expect(rec.durationMs).toBeGreaterThanOrEqual(9_900)
    expect(r.displayContent).toBeUndefined()
  }, 20_000)
})
