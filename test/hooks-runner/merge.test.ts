import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { mergeRecords } from '../../hooks-runner/merge-results.js'
import type { HookRecord, PermissionDecision } from '../../hooks-runner/result-types.js'
import { cmd, fire, group, json, preToolUse, projectSource, tempDir } from './helpers.js'

const decide = (permissionDecision: PermissionDecision, extra: object = {}) =>
  json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision, ...extra } })

function record(id: number, effect: Partial<HookRecord['effect']>): HookRecord {
  return {
    id, event: 'PreToolUse', type: 'command', name: `hook-${id}`, source: projectSource(), path: `hooks.PreToolUse[0].hooks[${id}]`,
    outcome: 'success', exitCode: 0, stdout: '', stderr: '', durationMs: 1, effect: { specific: {}, ...effect },
  }
}

describe('merging (spec §3.7)', () => {
  it.each<[PermissionDecision[], PermissionDecision]>([
    [['allow', 'ask'], 'ask'],
    [['ask', 'allow'], 'ask'],
    [['allow', 'defer', 'ask'], 'defer'],
    [['allow', 'deny', 'defer'], 'deny'],
    [['allow', 'allow'], 'allow'],
    [['deny', 'ask'], 'deny'],
  ])('%j → %s', (decisions, expected) => {
    const merged = mergeRecords('PreToolUse', decisions.map((d, i) => record(i, { permission: d })), [])
    expect(merged.decision).toBe(expected)
  })

  it('exit 2 cannot be overridden by a sibling allow', async () => {
    const r = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd(decide('allow')), cmd('echo stop >&2; exit 2'), cmd(`: second; ${decide('allow')}`)]))
    expect(r).toMatchObject({ decision: 'deny', blocked: true, blockReason: '[echo stop >&2; exit 2]: stop\n' })
    expect(r.records.map((x) => x.outcome)).toEqual(['success', 'blocking', 'success'])
  })

  it('a deny does not stop its siblings: every hook runs to completion', async () => {
    const r = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd(decide('deny')), cmd('sleep 0.05; echo done >&2')]))
    expect(r.records[1]).toMatchObject({ outcome: 'success', stderr: 'done\n' })
  })

  it('keeps every additionalContext in settings order, not finish order', async () => {
    const ctx = (text: string) => json({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: text } })
    const r = await fire('PostToolUse', { ...preToolUse(), tool_response: {} }, group('PostToolUse', [
      cmd(`sleep 0.15; ${ctx('first')}`), cmd(`sleep 0.05; ${ctx('second')}`), cmd(ctx('third')),
    ]))
    expect(r.additionalContexts.map((c) => c.text)).toEqual(['first', 'second', 'third'])
  })

  it('conflicting updatedInput: the last hook in settings order wins, whatever finishes last, with a warning', async () => {
    const r = await fire('PreToolUse', preToolUse('npm test'), group('PreToolUse', [
      cmd(`${decide('allow', { updatedInput: { command: 'npm test -- --ci' } })}`),
      cmd(`sleep 0.1; ${decide('allow', { updatedInput: { command: 'npm run test:safe' } })}`, {}),
      cmd(`sleep 0.2; true`),
    ]))
    expect(r.updatedInput).toEqual({ command: 'npm run test:safe' })
    const swapped = await fire('PreToolUse', preToolUse('npm test'), group('PreToolUse', [
      cmd(`sleep 0.1; ${decide('allow', { updatedInput: { command: 'A' } })}`),
      cmd(decide('allow', { updatedInput: { command: 'B' } })),
    ]))
    expect(swapped.updatedInput).toEqual({ command: 'B' })
    expect(swapped.warnings).toContainEqual(expect.objectContaining({ code: 'HOOKS_WARN_CONFLICT', message: expect.stringContaining('updatedInput') }))
  })

  it('identical rewrites are no conflict; a denied or deferred call gets no rewrite', async () => {
    const same = decide('allow', { updatedInput: { command: 'X' } })
    const r = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd(same), cmd(`true; ${same}`)]))
    expect(r.updatedInput).toEqual({ command: 'X' })
    expect(r.warnings.filter((w) => w.code === 'HOOKS_WARN_CONFLICT')).toEqual([])
    const denied = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd(same), cmd(decide('deny'))]))
    expect(denied.updatedInput).toBeUndefined()
  })

  it('the rewrite of the winning ask hook is preferred over an undecided hook\'s', () => {
    const merged = mergeRecords('PreToolUse', [
      record(0, { permission: 'ask', specific: { updatedInput: { command: 'ask-version' } } }),
      record(1, { specific: { updatedInput: { command: 'undecided-version' } } }),
      record(2, { permission: 'allow' }),
    ], [])
    expect(merged).toMatchObject({ decision: 'ask', updatedInput: { command: 'ask-version' } })
  })

  it('continue:false from any hook stops, with the first stop reason', async () => {
    const r = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd(decide('allow')), cmd(json({ continue: false, stopReason: 'quota' }))]))
    expect(r.stop).toMatchObject({ reason: 'quota' })
  })
})

describe('sequential groups (R4)', () => {
  it('run in order, each hook seeing the previous rewrite as tool_input; no conflict is reported', async () => {
    // Each hook appends its letter to the command it receives.
    const append = (letter: string) =>
      `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const i=JSON.parse(s);console.log(JSON.stringify({hookSpecificOutput:{hookEventName:"PreToolUse",updatedInput:{command:i.tool_input.command+"${letter}"}}}))})'`
    const r = await fire('PreToolUse', preToolUse('x'), group('PreToolUse', [cmd(append('a')), cmd(append('b')), cmd(append('c'))], { sequential: true }))
    expect(r.updatedInput).toEqual({ command: 'xabc' })
    expect(r.warnings.filter((w) => w.code === 'HOOKS_WARN_CONFLICT')).toEqual([])
  })

  it('a sequential group runs its hooks one after another; a parallel group runs them at once', async () => {
    // Order and overlap come from the hooks' own marks, never from how long the run took.
    const dir = await tempDir()
    const log = join(dir, 'marks.log')
    const mark = (name: string, what: string) => `echo "${name} ${what} $(date +%s%N)" >> "${log}"`
    const seqHooks = ['a', 'b', 'c'].map((n) => cmd(`${mark(n, 'start')}; sleep 0.05; ${mark(n, 'end')}`))
    await fire('Stop', {}, group('Stop', seqHooks, { sequential: true }))
    const seqMarks = await readMarks(log)
    expect(seqMarks.map((m) => `${m.name} ${m.what}`)).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end'])
    for (let i = 1; i < seqMarks.length; i++) expect(seqMarks[i]!.at >= seqMarks[i - 1]!.at).toBe(true)

    // Each parallel hook waits (up to 10 s) until all three have started: only hooks that overlap get past it.
    const barrier = join(dir, 'barrier.log')
    const parHooks = ['x', 'y', 'z'].map((n) => cmd(
      `echo ${n} >> "${barrier}"; i=0; while [ "$(wc -l < "${barrier}")" -lt 3 ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done; `
      + `if [ "$(wc -l < "${barrier}")" -ge 3 ]; then echo "${n} met"; else echo "${n} alone"; fi`,
    ))
    const par = await fire('Stop', {}, group('Stop', parHooks))
    expect(par.records.map((r) => r.stdout.trim()).sort()).toEqual(['x met', 'y met', 'z met'])
  })
})

async function readMarks(path: string): Promise<{ name: string; what: string; at: bigint }[]> {
  const text = await readFile(path, 'utf8')
  return text.trim().split('\n').map((line) => {
    const [name, what, at] = line.split(' ')
    return { name: name!, what: what!, at: BigInt(at!) }
  })
}

describe('fail closed (R1)', () => {
  it('onError deny turns a crash, a launch error or a timeout into a deny; default fails open', async () => {
    const r = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd('exit 1', { onError: 'deny' })]))
    expect(r).toMatchObject({ decision: 'deny', blocked: true })
    expect(r.records[0]).toMatchObject({ outcome: 'error', failedClosed: true })
    const missing = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd('/no/such/policy.sh', { onError: 'deny' })]))
    expect(missing).toMatchObject({ decision: 'deny', blocked: true })
    const open = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd('/no/such/policy.sh')]))
    expect(open.blocked).toBe(false)
  })

  it('onError deny on PermissionRequest answers deny', async () => {
    const r = await fire('PermissionRequest', preToolUse(), group('PermissionRequest', [cmd('exit 1', { onError: 'deny' })]))
    expect(r.permissionRequest).toMatchObject({ behavior: 'deny', message: expect.stringContaining('fails closed') })
  })

  it('onError deny with invalid output blocks Stop', async () => {
    const r = await fire('Stop', {}, group('Stop', [cmd(json({ decision: 42 }), { onError: 'deny' })]))
    expect(r.blocked).toBe(true)
    expect(r.blockReason).toContain('fails closed')
  })
})
