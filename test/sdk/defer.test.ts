import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineMod } from '../../core/mod/define.js'
import transcripts from '../../mods/transcripts/index.js'
import { runCli } from '../helpers/cli.js'
import { conversation } from './conversation.js'
import { toolsMod } from '../loop/helpers.js'
import { fileOf, readLines, rebuilt, run, tempCwd } from '../sessions/helpers.js'

let cwd: string
beforeAll(async () => {
  cwd = await tempCwd('modloop-defer-')
})

/** Answers tool.check from a list of verdicts, one per check, and counts the checks. */
function gate(verdicts: ('defer' | 'allow' | 'deny')[]) {
  const seen: { tool: string; id?: string }[] = []
  const mod = defineMod({
    name: 'gate',
    register: (on) => on('tool.check', (_$, e) => {
      seen.push({ tool: e.tool, id: e.tool_use_id })
      const decision = verdicts.shift() ?? 'allow'
      return decision === 'deny' ? { decision, reason: 'the gate says no' } : { decision }
    }),
  })
  return { mod, seen }
}

const echoCall = { reply: [{ text: 'asking first' }, { tool_use: { id: 'toolu_deferred_1', name: 'Echo', input: { text: 'held' } } }] }

describe('a deferred tool call', () => {
  it('that gives text to follow its result (a skill) has it follow the result when resumed', async () => {
    const guide = defineMod({
      name: 'guide',
      register: (on) => on('session.start', async ($, e, next) => {
        await $.tool.register({ name: 'Guide', description: 'Guide', input: z.object({}), call: () => ({ result: 'ok', text: 'Launching guide', followUp: 'Follow these steps.' }) } as never)
        return next(e)
      }),
    })
    const a = await run([{ reply: [{ tool_use: { id: 'toolu_guide_1', name: 'Guide', input: {} } }] }], 'guide me', cwd, {}, [gate(['defer']).mod, guide])
    expect(a.result).toMatchObject({ terminal_reason: 'tool_deferred' })
    const b = await run([{ reply: 'followed' }], '', cwd, { resume: a.sessionId }, [gate(['allow']).mod, guide])
    expect((b.requests[0]!.body as any).messages.at(-1).content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_guide_1', content: 'Launching guide' },
      { type: 'text', text: 'Follow these steps.' },
    ])
  })


  it('ends the turn with tool_deferred, leaves the call unanswered, and runs it first when the session is resumed', async () => {
    const first = gate(['defer'])
    const a = await run([echoCall], 'do it', cwd, {}, [first.mod])
    expect(a.error).toBeUndefined()
    expect(a.result).toMatchObject({
      subtype: 'success', is_error: false, stop_reason: 'tool_deferred', terminal_reason: 'tool_deferred',
      deferred_tool_use: { id: 'toolu_deferred_1', name: 'Echo', input: { text: 'held' } },
    })
    expect(a.messages.some((m) => m.type === 'user' && JSON.stringify(m).includes('tool_result'))).toBe(false)
    expect(a.requests).toHaveLength(1)
    const file = fileOf(cwd, a.sessionId)
    expect(readLines(file).some((l) => JSON.stringify(l.message ?? '').includes('tool_result'))).toBe(false)
    expect(rebuilt(file).repaired).toBe(0)

    const second = gate(['allow'])
    const b = await run([{ reply: 'went on after the held call', expect: { toolResults: 1 } }], '', cwd, { resume: a.sessionId }, [second.mod])
    expect(b.error).toBeUndefined()
    expect(second.seen).toEqual([{ tool: 'Echo', id: 'toolu_deferred_1' }])
    expect(b.result).toMatchObject({ subtype: 'success', terminal_reason: 'completed', result: 'went on after the held call', session_id: a.sessionId })
    expect(b.result.deferred_tool_use).toBeUndefined()
    const sent = (b.requests[0]!.body as any).messages
    expect(sent.at(-2).content.at(-1)).toMatchObject({ type: 'tool_use', id: 'toolu_deferred_1' })
    expect(sent.at(-1).content).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_deferred_1', content: 'held' }])
    const shown = b.messages.find((m) => m.type === 'user') as any
    expect(shown.message.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_deferred_1' })
    // The transcript rebuilds to what was sent, plus the answer.
    expect(rebuilt(file).messages.slice(0, sent.length)).toEqual(sent)
  })

  it('a resume that comes with a prompt sends it after the held call\'s result', async () => {
    const a = await run([echoCall], 'first', cwd, {}, [gate(['defer']).mod])
    const b = await run([{ reply: 'both handled' }], 'and then this', cwd, { resume: a.sessionId }, [gate(['allow']).mod])
    const sent = (b.requests[0]!.body as any).messages
    expect(sent.at(-2).content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_deferred_1' })
    expect(sent.at(-1).content[0]).toEqual({ type: 'text', text: 'and then this' })
    expect(b.result.result).toBe('both handled')
  })

  it('may be deferred again on resume, and refused on the resume after that', async () => {
    const a = await run([echoCall], 'first', cwd, {}, [gate(['defer']).mod])
    const again = gate(['defer'])
    const b = await run([], '', cwd, { resume: a.sessionId }, [again.mod])
    expect(again.seen).toHaveLength(1)
    expect(b.requests).toHaveLength(0)
    expect(b.result).toMatchObject({ terminal_reason: 'tool_deferred', stop_reason: 'tool_deferred', deferred_tool_use: { id: 'toolu_deferred_1' } })
    const c = await run([{ reply: 'understood, not running it' }], '', cwd, { resume: a.sessionId }, [gate(['deny']).mod])
    const sent = (c.requests[0]!.body as any).messages
    expect(sent.at(-1).content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_deferred_1', is_error: true, content: 'the gate says no' })
    expect(c.result.permission_denials).toEqual([{ tool_name: 'Echo', tool_use_id: 'toolu_deferred_1', tool_input: { text: 'held' } }])
  })

  it('ends with tool_deferred_unavailable when the tool is gone on resume, and stays pending', async () => {
    const a = await run([echoCall], 'first', cwd, {}, [gate(['defer']).mod])
    const b = await run([], '', cwd, { resume: a.sessionId, mods: [transcripts] })
    expect(b.requests).toHaveLength(0)
    expect(b.result).toMatchObject({
      subtype: 'success', is_error: true, stop_reason: 'tool_deferred_unavailable', terminal_reason: 'tool_deferred_unavailable',
      deferred_tool_use: { id: 'toolu_deferred_1', name: 'Echo' },
    })
    expect(b.result.result).toContain('no tool named Echo')
    // With the tool back, the same call runs.
    const c = await run([{ reply: 'ran it at last' }], '', cwd, { resume: a.sessionId, mods: [toolsMod(), transcripts] })
    expect((c.requests[0]!.body as any).messages.at(-1).content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_deferred_1', content: 'held' })
  })

  it('is not honoured when the response holds several tool calls: that call is answered with an error and the turn goes on', async () => {
    const two = { reply: [{ tool_use: { id: 'toolu_a', name: 'Echo', input: { text: 'a' } } }, { tool_use: { id: 'toolu_b', name: 'Echo', input: { text: 'b' } } }] }
    const logs: string[] = []
    const r = await run([two, { reply: 'carried on' }], 'two at once', cwd, { log: (l) => logs.push(l) }, [gate(['defer', 'allow']).mod])
    expect(r.result).toMatchObject({ terminal_reason: 'completed', result: 'carried on' })
    expect(r.result.deferred_tool_use).toBeUndefined()
    const results = (r.requests[1]!.body as any).messages.at(-1).content
    expect(results[0]).toMatchObject({ tool_use_id: 'toolu_a', is_error: true })
    expect(results[0].content).toContain('deferral is honoured only')
    expect(results[1]).toMatchObject({ tool_use_id: 'toolu_b', content: 'b' })
    expect(logs.some((l) => l.includes('not honoured'))).toBe(true)
  })

  it('through the CLI: -p ends with tool_deferred, and -p --resume with no prompt runs the held call', async () => {
    const dir = await tempCwd('modloop-defer-cli-')
    // Defers every call until a file named `approved` exists.
    writeFileSync(join(dir, 'gate.mjs'), [
      "import { existsSync } from 'node:fs'",
      "import { join } from 'node:path'",
      "export default { name: 'gate', register(on) { on('tool.check', ($, e, next) => existsSync(join($.session.cwd(), 'approved')) ? next(e) : { decision: 'defer' }) } }",
    ].join('\n'))
    writeFileSync(join(dir, 'modloop.config.json'), JSON.stringify({ mods: ['write', 'transcripts', './gate.mjs'] }))
    const cli = (args: string[], script: unknown) => runCli(['-p', ...args, '--output-format', 'json'], { script, cwd: dir, stdin: '', env: { MODLOOP_HOME: process.env.MODLOOP_HOME } })
    const out = join(dir, 'out.txt')
    const first = await cli(['write the file'], [{ reply: [{ tool_use: { id: 'toolu_w', name: 'Write', input: { file_path: out, content: 'approved content' } } }] }])
    expect(first.code).toBe(0)
    const held = JSON.parse(first.out)
    expect(held).toMatchObject({ stop_reason: 'tool_deferred', terminal_reason: 'tool_deferred', deferred_tool_use: { id: 'toolu_w', name: 'Write', input: { file_path: out } } })
    expect(existsSync(out)).toBe(false)

    writeFileSync(join(dir, 'approved'), '')
    const second = await cli(['--resume', held.session_id], [{ reply: 'written after approval' }])
    expect(second.code).toBe(0)
    expect(JSON.parse(second.out)).toMatchObject({ result: 'written after approval', terminal_reason: 'completed', session_id: held.session_id })
    expect(readFileSync(out, 'utf8')).toBe('approved content')

    const empty = await cli(['--resume', held.session_id], [])
    expect(empty.code).toBe(1)
    expect(JSON.parse(empty.out).result).toContain('Nothing to run')
  })

  it('in a streaming-input session the next message runs the held call first, then its own prompt', async () => {
    const g = gate(['defer', 'allow'])
    const c = await conversation([echoCall, { reply: 'now both' }], { mods: [toolsMod(), g.mod] })
    try {
      expect((await c.say('first')).terminal_reason).toBe('tool_deferred')
      expect((await c.say('approved, go on')).result).toBe('now both')
      const sent = (c.server.requests[1]!.body as any).messages
      expect(sent.slice(-3).map((m: any) => [m.role, m.content.at(-1).type])).toEqual([['assistant', 'tool_use'], ['user', 'tool_result'], ['user', 'text']])
      expect(g.seen).toHaveLength(2)
    } finally {
      await c.end()
    }
  })
})
