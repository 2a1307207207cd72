import { describe, expect, it } from 'vitest'
import { cmd, fire, group, preToolUse, script, tempDir } from '../hooks-runner/helpers.js'

// Node writes the output so its size is exact and the start is fast; the JSON is a real deny.
const printer = (body: string) => `#!/usr/bin/env node\nconst out = ${body}\nprocess.stdout.write(out)\n`
const denyOf = (reasonChars: number) => `JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no: ' + 'x'.repeat(${reasonChars}) } })`

describe('hook output never fails open', () => {
  it('a 2 MB deny JSON is read whole and denies', async () => {
    const hook = await script(await tempDir(), 'deny.js', printer(denyOf(2_000_000)))
    const r = await fire('PreToolUse', preToolUse('rm -rf /tmp/x'), group('PreToolUse', [cmd(hook)]))
    expect(r.decision).toBe('deny')
    expect(r.blocked).toBe(true)
    expect(r.decisionReason?.startsWith('no: xxx')).toBe(true)
  })

  it('a decision past the 16 MiB cap on PreToolUse blocks (fails closed) with a message naming the hook and the size', async () => {
    const hook = await script(await tempDir(), 'huge.js', printer(denyOf(20_000_000)))
    const r = await fire('PreToolUse', preToolUse('rm -rf /tmp/x'), group('PreToolUse', [cmd(hook)]))
    expect(r.blocked).toBe(true)
    expect(r.decision).toBe('deny')
    expect(r.records[0]).toMatchObject({ failedClosed: true, errorCode: 'HOOKS_ERR_OUTPUT' })
    expect(r.blockReason).toContain(`${hook}: printed 20.0 MB on stdout, past the 16 MiB a decision is read from`)
  })

  it('10 MB of plain text on an event that cannot block is kept whole', async () => {
    const hook = await script(await tempDir(), 'ten.js', printer(`'z'.repeat(10_000_000)`))
    const r = await fire('SessionStart', { source: 'startup' }, group('SessionStart', [cmd(hook)]))
    expect(r.blocked).toBe(false)
    expect(r.additionalContexts[0]!.text).toHaveLength(10_000_000)
  })

  it('past the cap on an event that cannot block, the kept text says it was cut and a warning says how much', async () => {
    const hook = await script(await tempDir(), 'twenty.js', printer(`'z'.repeat(20_000_000)`))
    const r = await fire('SessionStart', { source: 'startup' }, group('SessionStart', [cmd(hook)]))
    expect(r.blocked).toBe(false)
    expect(r.additionalContexts[0]!.text).toMatch(/\[cut: the hook printed 20\.0 MB; only the first 16 MiB were kept\]$/)
    expect(r.warnings.map((w) => w.code)).toContain('HOOKS_WARN_OUTPUT_CUT')
  })
})
