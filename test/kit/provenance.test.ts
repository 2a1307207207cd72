import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { query, type SDKMessage } from '../../index.js'
import { createTestHost, defineMod, type TestHost } from '../../testing.js'
import { projectDir } from '../../mods/transcripts/store/paths.js'
import { describeRecord } from '../../cli/why-trace/describe.js'
import { ProvenanceLog } from '../../runtime/trace-log.js'
import { readTrace } from '../../cli/why-trace/read.js'
import { example } from '../examples/paths.js'
import { runCli } from '../helpers/cli.js'
import { runMain } from './run-main.js'

const listAll = defineMod({
  name: 'list-all',
  register(on) {
    on('tool.call', { tool: 'Bash' }, (_$, e, next) => next(e.command === 'ls' ? { ...e, command: 'ls -la' } : e))
  },
})
const observer = defineMod({
  name: 'observer',
  register(on) {
    on('tool.call', (_$, e, next) => next({ ...e }))
  },
})

let t: TestHost | undefined
afterEach(() => t?.close())

describe('provenance: what each mod changed or decided', () => {
  it('records rewrites, denials and changed results with {mod, event, before, after}', async () => {
    t = await createTestHost({ mods: [observer, example('mods/redact-secrets'), listAll, example('mods/block-dangerous')] })
    await t.emit('tool.call', { tool: 'Bash', tool_use_id: 'toolu_a', command: 'ls' }, () => ({ result: 'token=abcdefgh' }))
    expect(t.why('toolu_a').map((r) => ({ mod: r.mod, event: r.event, kind: r.kind, before: r.before, after: r.after }))).toEqual([
      { mod: 'list-all', event: 'tool.call', kind: 'rewrite', before: { tool: 'Bash', tool_use_id: 'toolu_a', command: 'ls' }, after: { tool: 'Bash', tool_use_id: 'toolu_a', command: 'ls -la' } },
      { mod: 'redact-secrets', event: 'tool.call', kind: 'result', before: { result: 'token=abcdefgh' }, after: { result: 'token=[REDACTED]' } },
    ])
    await t.emit('tool.call', { tool: 'Bash', tool_use_id: 'toolu_b', command: 'rm -rf /' }, () => ({ result: 'never' }))
    expect(t.why('toolu_b')).toEqual([expect.objectContaining({ mod: 'block-dangerous', kind: 'deny', tool: 'Bash', after: { deny: expect.stringContaining('refused') } })])
    // `modloop why` shows a rewrite or a changed result as the fields that changed.
    expect(t.why('toolu_a').map(describeRecord)).toEqual([
      expect.stringMatching(/^tool\.call\s+list-all\s+rewrite\s+command: "ls" → "ls -la"$/),
      expect.stringMatching(/^tool\.call\s+redact-secrets\s+result\s+result: "token=abcdefgh" → "token=\[REDACTED\]"$/),
    ])
    // A copy that changes nothing, and a dispatch no mod touched, leave no record.
    await t.emit('tool.call', { tool: 'Read', tool_use_id: 'toolu_c', file_path: 'x' }, () => ({ result: 'fine' }))
    expect(t.why('toolu_c')).toEqual([])
  })

  it('records a gate that failed closed, and prompt changes under the subject "prompt"', async () => {
    const crashy = defineMod({
      name: 'crashy-gate',
      register(on) {
        on('tool.check', () => { throw new Error('boom') }, { failClosed: true })
      },
    })
    t = await createTestHost({ mods: [crashy, example('mods/house-style')] })
    await t.emit('tool.check', { tool: 'Bash', input: {}, tool_use_id: 'toolu_d' })
    expect(t.why('toolu_d')).toEqual([expect.objectContaining({ mod: 'crashy-gate', event: 'tool.check', kind: 'deny' })])
    await t.emit('prompt.section', { name: 'intro', text: 'base' })
    expect(t.why('prompt')).toEqual([expect.objectContaining({ mod: 'house-style', event: 'prompt.section', kind: 'result', before: { text: 'base' } })])
  })

  it('records a rewrite of a model request and a mod answering it (turn.step, a streaming event)', async () => {
    const cheaper = defineMod({
      name: 'cheaper',
      register(on) {
        on('turn.step', async function* (_$, e, next) {
          return yield* next({ ...e, model: 'claude-haiku-4-5', effort: 'low' })
        })
      },
    })
    t = await createTestHost({ mods: [cheaper], script: [{ reply: 'ok' }] })
    await t.run('hi', { model: 'claude-sonnet-4-5' })
    expect(t.model.requests[0]!.model).toBe('claude-haiku-4-5')
    const [rewrite, ...more] = t.why('turn.step')
    expect(more).toEqual([])
    expect(rewrite).toMatchObject({ mod: 'cheaper', event: 'turn.step', kind: 'rewrite', before: { model: 'claude-sonnet-4-5' }, after: { model: 'claude-haiku-4-5', effort: 'low' } })
    expect(describeRecord(rewrite!)).toMatch(/^turn\.step\s+cheaper\s+rewrite\s+model: "claude-sonnet-4-5" → "claude-haiku-4-5"; \+effort: "low"$/)
    await t.close()

    // cost-guard answers the step itself once the budget is spent: the answer is on record.
    t = await createTestHost({
      mods: [[example('mods/cost-guard'), { budgetUsd: 1 }], 'glob'],
      // A million input tokens on Sonnet cost more than $1: the second request is never sent.
      script: [{ reply: [{ tool_use: { name: 'Glob', input: { pattern: '*.md' } } }], usage: { input_tokens: 1_000_000 } }, { reply: 'never sent' }],
    })
    const { result } = await t.run('list the docs', { model: 'claude-sonnet-4-5' })
    expect(t.model.requests).toHaveLength(1)
    expect(t.why('turn.step')).toEqual([expect.objectContaining({ mod: 'cost-guard', kind: 'answer', after: expect.objectContaining({ answer: result.result, toolUses: [] }) })])
  })

  it('query(): q.why(toolUseId) after a run', async () => {
    const cwd = await realpath(await mkdtemp(join(tmpdir(), 'modloop-why-q-')))
    await writeFile(join(cwd, 'modloop.config.json'), JSON.stringify({ mods: [example('mods/block-dangerous'), 'bash'] }))
    const q = query({
      prompt: 'clean up',
      options: {
        cwd,
        script: [{ reply: [{ tool_use: { id: 'toolu_q1', name: 'Bash', input: { command: 'rm -rf /' } } }] }, { reply: 'refused' }],
      },
    })
    const messages: SDKMessage[] = []
    for await (const m of q) messages.push(m)
    expect(q.why('toolu_q1')).toEqual([expect.objectContaining({ mod: 'block-dangerous', kind: 'deny', subject: 'toolu_q1' })])
    expect(q.why('toolu_none')).toEqual([])
    await rm(cwd, { recursive: true, force: true })
  })
})

describe('the trace file', () => {
  it('cuts long strings and lists, in memory and in the file, and keeps the latest 256K characters of records', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-trace-')))
    const file = join(dir, 'nested', 's.trace.jsonl')
    const log = new ProvenanceLog(() => file)
    const messages = Array.from({ length: 100 }, (_, i) => ({ role: 'user', content: `m${i}` }))
    log.add({ mod: 'm', event: 'session.compact', kind: 'answer', subject: 'session.compact', before: { messages }, after: { messages: [] }, at: 1 })
    log.add({ mod: 'm', event: 'prompt.section', kind: 'result', subject: 'prompt', before: { text: 'x'.repeat(5_000) }, after: { text: 'y' }, at: 2 })
    expect((log.records[0]!.before as { messages: unknown[] }).messages).toHaveLength(21)
    // The file gets a turn's lines in one write once that turn is over.
    await new Promise((resolve) => setImmediate(resolve))
    const [compact, section] = await readTrace(file)
    expect((compact!.before as { messages: unknown[] }).messages).toHaveLength(21)
    expect((compact!.before as { messages: unknown[] }).messages.at(-1)).toBe('... 80 more items')
    expect((section!.before as { text: string }).text).toMatch(/^x{2000}... \(5000 chars\)$/)
    expect(log.why('prompt')).toHaveLength(1)
    const memoryOnly = new ProvenanceLog()
    for (let i = 0; i < 5_010; i++) memoryOnly.add({ mod: 'm', event: 'tool.call', kind: 'result', subject: `t${i}`, before: {}, after: {}, at: i })
    // Memory keeps the latest records that fit in 256K characters of JSON.
    const kept = memoryOnly.records
    expect(kept.length).toBeGreaterThan(2_000)
    expect(kept.length).toBeLessThan(5_010)
    expect(kept.map((r) => r.subject)).toEqual(Array.from({ length: kept.length }, (_, i) => `t${5_010 - kept.length + i}`))
    expect(kept.reduce((n, r) => n + JSON.stringify(r).length, 0)).toBeLessThanOrEqual(256_000)
    await rm(dir, { recursive: true, force: true })
  })
})

describe('modloop why', () => {
  let dir: string
  let home: string
  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-why-')))
    home = await realpath(await mkdtemp(join(tmpdir(), 'modloop-why-home-')))
    await writeFile(join(dir, 'modloop.config.json'), JSON.stringify({ mods: ['bash', 'transcripts', example('mods/block-dangerous')] }))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
    await rm(home, { recursive: true, force: true })
  })

  it('prints which mod decided a tool call, from the trace beside the transcript', async () => {
    const env = { MODLOOP_HOME: home }
    const run = await runCli(['-p', 'wipe it'], {
      cwd: dir, env,
      script: [{ reply: [{ tool_use: { id: 'toolu_w1', name: 'Bash', input: { command: 'rm -rf /' } } }] }, { reply: 'no' }],
    })
    expect(run.code).toBe(0)
    const traces = (await import('node:fs')).readdirSync(projectDir(dir, env)).filter((f) => f.endsWith('.trace.jsonl'))
    expect(traces).toHaveLength(1)
    const line = JSON.parse((await readFile(join(projectDir(dir, env), traces[0]!), 'utf8')).trim())
    expect(line).toMatchObject({ mod: 'block-dangerous', event: 'tool.call', kind: 'deny', subject: 'toolu_w1' })

    const r = await runMain(['why', 'toolu_w1'], dir, env)
    expect(r.code).toBe(0)
    expect(r.out).toContain('toolu_w1 (Bash): 1 change by mods')
    expect(r.out).toMatch(/tool\.call\s+block-dangerous\s+deny\s+\{"deny":"block-dangerous: refused/)
    const json = await runMain(['why', 'toolu_w1', '--json'], dir, env)
    expect(JSON.parse(json.out).records).toHaveLength(1)
    expect(await runMain(['why', 'toolu_nope'], dir, env)).toMatchObject({ code: 1, err: expect.stringContaining('no mod changed or decided it') })
  })
})
