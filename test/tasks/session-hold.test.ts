import { describe, expect, it } from 'vitest'
import { query } from '../../entry.js'
import type { ModApi } from '../../core/mod/api.js'
import { createScriptedModel } from '../../testing/model/scripted.js'

/** A mod that holds a one-prompt run open from its start, and tells the test how it started. */
function holder() {
  const seen: { waitsForInput: boolean; $: ModApi; release?: () => void }[] = []
  const mod = { name: 'holder', register: (on: any) => on('session.start', async ($: ModApi, e: any, next: any) => {
    const r = await next(e)
    seen.push({ waitsForInput: e.waitsForInput, $, ...(e.waitsForInput ? {} : { release: $.session.hold({ reason: 'work pending' }) }) })
    return r
  }) }
  return { mod, seen }
}

const run = (prompt: string, mod: unknown, log: string[], maxWaitTasksMs?: number) => query({ prompt, options: {
  bare: true, mods: [mod as any], modelProvider: createScriptedModel([{ reply: 'first' }, { reply: 'second' }]), log: (l) => log.push(l),
  ...(maxWaitTasksMs !== undefined ? { maxWaitTasksMs } : {}),
} })

describe('$.session.hold and session.start waitsForInput', () => {
  it('a one-prompt run starts with waitsForInput false; a hold keeps it open, a prompt submitted meanwhile runs, and the release ends it', async () => {
    const { mod, seen } = holder()
    const log: string[] = []
    const q = run('go', mod, log)
    const results: string[] = []
    for await (const m of q) {
      if (m.type !== 'result') continue
      results.push('result' in m ? m.result ?? '' : m.subtype)
      if (results.length === 1) {
        expect(q.isIdle()).toBe(false)
        // Not awaited: it settles as its turn starts, and that turn runs only as this loop reads on.
        void seen[0]!.$.prompt.submit({ text: 'more', asUser: true })
        seen[0]!.release!()
        seen[0]!.release!()
      }
    }
    expect(seen.map((s) => s.waitsForInput)).toEqual([false])
    expect(results).toEqual(['first', 'second'])
  })

  it('the hold lasts at most maxWaitTasksMs (--max-wait-tasks), said on the log', async () => {
    const { mod } = holder()
    const log: string[] = []
    const results: string[] = []
    for await (const m of run('go', mod, log, 20)) if (m.type === 'result') results.push('result' in m ? m.result ?? '' : m.subtype)
    expect(results).toEqual(['first'])
    expect(log).toEqual(['waiting while held open (holder: work pending); at most 0 s (--max-wait-tasks)', 'stopped waiting after 0 s (--max-wait-tasks): what held the run open is let go'])
  })

  it('a session with streaming input starts with waitsForInput true', async () => {
    const { mod, seen } = holder()
    async function* input() {
      yield { type: 'user' as const, message: { role: 'user' as const, content: 'go' }, parent_tool_use_id: null }
    }
    for await (const _m of query({ prompt: input(), options: { bare: true, mods: [mod as any], modelProvider: createScriptedModel([{ reply: 'first' }]) } })) { /* drain */ }
    expect(seen.map((s) => s.waitsForInput)).toEqual([true])
  })

  it('a hold needs a reason', async () => {
    const bad = { name: 'bad', register: (on: any) => on('session.start', async ($: ModApi, e: any, next: any) => {
      expect(() => $.session.hold({ reason: '' })).toThrow(/bad: \$\.session\.hold needs \{ reason \}/)
      return next(e)
    }) }
    for await (const _m of run('go', bad, [])) { /* drain */ }
  })
})
