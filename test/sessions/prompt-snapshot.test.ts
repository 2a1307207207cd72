import { describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import promptSnapshot from '../../mods/prompt-snapshot/index.js'
import type { QueryOptions } from '../../runtime/options.js'
import { fileOf, readLines, run, tempCwd } from './helpers.js'

// A section that says something new on every request, as a clock or a live status would.
let renders = 0
const ticking = defineMod({
  name: 'ticking',
  register(on) {
    on('prompt.compose', async ($, e, next) => {
      const r = await next(e)
      return { sections: [...r.sections, { id: 'tick', text: `render ${++renders}`, scope: 'session' as const }] }
    })
  },
})

const echo = { reply: [{ tool_use: { name: 'Echo', input: { text: 'x' } } }] }
const systemOf = (r: { requests: { body: any }[] }) => r.requests.map((q) => (q.body.system as { text: string }[]).map((b) => b.text).join(''))
const snapshots = (cwd: string, sessionId: string) => readLines(fileOf(cwd, sessionId)).filter((l) => l.type === 'attachment' && l.attachment.type === 'prompt_snapshot')
const go = (cwd: string, script: unknown, options: QueryOptions = {}) => run(script, 'go', cwd, options, [ticking, promptSnapshot])

describe('the prompt-snapshot mod through query()', () => {
  it('every request of a conversation, and its resume, sends the prompt its first request rendered', async () => {
    const cwd = await tempCwd()
    const first = await go(cwd, [echo, { reply: 'done' }])
    const [a, b] = systemOf(first)
    expect(a).toMatch(/render \d+$/)
    expect(b).toBe(a)
    const resumed = await go(cwd, [{ reply: 'again' }], { resume: first.sessionId })
    expect(systemOf(resumed)).toEqual([a])
    expect(snapshots(cwd, first.sessionId)).toHaveLength(1)
  })

  it('systemPrompt.snapshot false renders the prompt on every request and records nothing', async () => {
    const cwd = await tempCwd()
    const r = await go(cwd, [echo, { reply: 'done' }], { systemPrompt: { type: 'preset', snapshot: false } })
    const [a, b] = systemOf(r)
    expect(b).not.toBe(a)
    expect(snapshots(cwd, r.sessionId)).toHaveLength(0)
  })

  it('a fork goes on with the record, and keeps it in its own transcript', async () => {
    const cwd = await tempCwd()
    const first = await go(cwd, [{ reply: 'one' }])
    const fork = await go(cwd, [{ reply: 'two' }], { resume: first.sessionId, forkSession: true })
    expect(fork.sessionId).not.toBe(first.sessionId)
    expect(systemOf(fork)).toEqual(systemOf(first))
    const again = await go(cwd, [{ reply: 'three' }], { resume: fork.sessionId })
    expect(systemOf(again)).toEqual(systemOf(first))
  })

  it('another model renders the prompt afresh: it names the model', async () => {
    const cwd = await tempCwd()
    const first = await go(cwd, [{ reply: 'one' }], { model: 'claude-sonnet-4-5' })
    const other = await go(cwd, [{ reply: 'two' }], { resume: first.sessionId, model: 'claude-haiku-4-5' })
    expect(systemOf(other)).not.toEqual(systemOf(first))
    expect(snapshots(cwd, first.sessionId).map((l) => l.attachment.model)).toEqual(['claude-sonnet-4-5', 'claude-haiku-4-5'])
  })

  it('a transcript written without a record resumes, and is recorded from then on', async () => {
    const cwd = await tempCwd()
    const first = await run([{ reply: 'one' }], 'go', cwd, {}, [ticking])
    const resumed = await go(cwd, [{ reply: 'two' }], { resume: first.sessionId })
    expect(resumed.result.subtype).toBe('success')
    expect(snapshots(cwd, first.sessionId).map((l) => l.attachment.systemPrompt.join('\n\n'))).toEqual(systemOf(resumed))
  })
})
