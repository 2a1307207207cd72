import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BackgroundHooks } from '../../hooks-runner/background-hooks.js'
import { groupAlive } from '../../hooks-runner/kill-group.js'
import type { BackgroundHookResult } from '../../hooks-runner/result-types.js'
import { cmd, eventually, fire, group, json, preToolUse, tempDir } from './helpers.js'

function groupGone(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
    return false
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

describe.concurrent('process hygiene (spec §4.4, R7)', () => {
  it('a timeout kills the whole process tree and fails open', async () => {
    const dir = await tempDir()
    const pids = join(dir, 'pids')
    const r = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd(`sleep 30 & sleep 30 & echo "$!" > ${pids}; wait`, { timeout: 1 })]))
    const rec = r.records[0]!
    expect(rec).toMatchObject({ outcome: 'timeout', errorCode: 'HOOKS_ERR_TIMEOUT' })
    expect(rec.message).toContain('timed out after 1 s')
    expect(r).toMatchObject({ blocked: false })
    expect(r.decision).toBeUndefined()
    expect(groupAlive(rec.pid!)).toBe(false)
    const grandchild = Number(await readFile(pids, 'utf8'))
    expect(grandchild).toBeGreaterThan(0)
    // Dead orphans linger until init reaps them; then the group id itself is gone.
    expect(await eventually(() => groupGone(rec.pid!), 8000)).toBe(true)
  })

  it('a hook that ignores SIGTERM is killed with SIGKILL after the grace period', async () => {
    const r = await fire('Stop', {}, group('Stop', [cmd(`trap '' TERM; sleep 30 & wait; sleep 30`, { timeout: 1 })]), { killGraceMs: 150 })
    const rec = r.records[0]!
    // The hook ignores TERM and would sleep 60 s, past the test's own timeout: settling at all means SIGKILL came.
    expect(rec.outcome).toBe('timeout')
    expect(groupAlive(rec.pid!)).toBe(false)
  })

  it('a crash by signal is a non-blocking error', async () => {
    const r = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd('kill -SEGV $$')]))
    expect(r.records[0]).toMatchObject({ outcome: 'error', signal: 'SIGSEGV', exitCode: null })
    expect(r.blocked).toBe(false)
  })

  it('a background grandchild holding stdout does not hold the run', async () => {
    const r = await fire('Stop', {}, group('Stop', [cmd('sleep 5 & echo started')]))
    const rec = r.records[0]!
    expect(rec).toMatchObject({ outcome: 'success', stdout: 'started\n' })
    // The run ended while the grandchild still held stdout open, and says so.
    expect(groupAlive(rec.pid!)).toBe(true)
    expect(r.warnings).toContainEqual(expect.objectContaining({ code: 'HOOKS_WARN_PIPES_HELD', hook: 'sleep 5 & echo started' }))
    process.kill(-rec.pid!, 'SIGKILL')
  })

  it('the caller\'s abort signal cancels running hooks', async () => {
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 100)
    const r = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd('sleep 30')]), { signal: controller.signal })
    expect(r.records[0]!.outcome).toBe('cancelled')
    expect(r.errors).toEqual([])
    expect(groupAlive(r.records[0]!.pid!)).toBe(false)
  })

  it('SessionEnd hooks share one budget', async () => {
    const r = await fire('SessionEnd', { reason: 'other' }, group('SessionEnd', [cmd('sleep 5; : a'), cmd('sleep 5; : b')]), { sessionEndBudgetMs: 300 })
    // Each hook's own timeout is the default 60 s: both timing out at all means the shared 300 ms budget cut them.
    expect(r.records.map((x) => x.outcome)).toEqual(['timeout', 'timeout'])
  })

  it('a PreModelSwitch timeout blocks the switch (the one fail-closed timeout)', async () => {
    const r = await fire('PreModelSwitch', { to_model: 'm' }, group('PreModelSwitch', [cmd('sleep 30', { timeout: 0.3 })]))
    expect(r).toMatchObject({ blocked: true, decision: 'deny' })
  })
})

describe.concurrent('async hooks (spec §4.5)', () => {
  it('run in the background; their context arrives later through BackgroundHooks', async () => {
    const background = new BackgroundHooks()
    const go = join(await tempDir(), 'go')
    const out = json({ systemMessage: 'm', hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'later' }, decision: 'block' })
    // The hook waits for a file the test writes only once the run returned: returning first is the proof.
    const r = await fire('PostToolUse', { ...preToolUse(), tool_response: {} }, group('PostToolUse', [cmd(`while [ ! -f ${go} ]; do sleep 0.02; done; ${out}`, { async: true })]), { background })
    expect(r.records).toEqual([])
    expect(r).toMatchObject({ blocked: false, background: [expect.objectContaining({ name: expect.stringContaining('while') })] })
    expect(background.pending).toBe(1)
    await writeFile(go, '')
    await background.settled()
    const [result] = background.drain()
    expect(result).toMatchObject({ additionalContext: 'later', systemMessage: 'm', record: { outcome: 'blocking', async: true } })
    expect(background.drain()).toEqual([])
  })

  it('asyncRewake: exit 2 wakes the host with stderr', async () => {
    const background = new BackgroundHooks()
    const seen: BackgroundHookResult[] = []
    background.onResult((res) => seen.push(res))
    await fire('PostToolUse', { ...preToolUse(), tool_response: {} }, group('PostToolUse', [cmd('sleep 0.1; echo "tests broke" >&2; exit 2', { asyncRewake: true })]), { background })
    await background.settled()
    expect(seen[0]).toMatchObject({ rewake: 'tests broke' })
  })

  it('a hook that prints {"async": true} first is moved to the background', async () => {
    const background = new BackgroundHooks()
    const go = join(await tempDir(), 'go')
    // Its second line waits for a file the test writes only once the run returned.
    const r = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd(`echo '{"async":true,"asyncTimeout":5000}'; while [ ! -f ${go} ]; do sleep 0.02; done; echo '{"systemMessage":"done"}'`)]), { background })
    expect(r.records[0]).toMatchObject({ outcome: 'success', async: true })
    expect(r.background).toHaveLength(1)
    await writeFile(go, '')
    const result = await r.background[0]!.done
    expect(result).toMatchObject({ systemMessage: 'done', record: { outcome: 'success' } })
  })

  it('cancelAll kills what is still running and records it as cancelled', async () => {
    const background = new BackgroundHooks()
    await fire('Stop', {}, group('Stop', [cmd('sleep 30', { async: true })]), { background })
    await new Promise((r) => setTimeout(r, 50))
    await background.cancelAll()
    const [result] = background.drain()
    expect(result!.record.outcome).toBe('cancelled')
    expect(groupAlive(result!.record.pid!)).toBe(false)
  })

  it('cancelAll also ends a hook that printed {"async": true} and went on in the background', async () => {
    const background = new BackgroundHooks()
    const r = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd(`echo '{"async":true}'; sleep 30`)]), { background })
    expect(r.records[0]).toMatchObject({ async: true })
    await background.cancelAll()
    const [result] = background.drain()
    expect(result!.record.outcome).toBe('cancelled')
    expect(groupAlive(result!.record.pid!)).toBe(false)
  })
})
