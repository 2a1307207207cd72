import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import bash from '../../mods/bash/index.js'
import { tempDir } from '../tools/harness.js'
import { runScript } from './helpers.js'

/** Report: calls progress `times` times, `gapMs` apart, then answers. */
const reporter = defineMod({
  name: 'reporter',
  register(on) {
    on('session.start', async ($, e, next) => {
      await $.tool.register({
        name: 'Report', description: 'Reports progress', input: z.object({ times: z.number(), gapMs: z.number() }), isReadOnly: true,
        call: async (i: { times: number; gapMs: number }, ctx: { progress(d: unknown): void }) => {
          for (let n = 0; n < i.times; n++) {
            ctx.progress({ n })
            await new Promise((r) => setTimeout(r, i.gapMs))
          }
          return { result: 'reported' }
        },
      } as never)
      return next(e)
    })
  },
})

let tmp: Awaited<ReturnType<typeof tempDir>>
beforeAll(async () => { tmp = await tempDir() })
afterAll(() => tmp.remove())

const progressOf = (messages: readonly { type: string }[]) => messages.filter((m) => m.type === 'tool_progress') as any[]

describe('tool_progress', () => {
  it('a tool\'s progress reaches the stream as tool_progress, at most once a second per call, before its result', async () => {
    const run = await runScript([{ reply: [{ tool_use: { id: 'toolu_rep', name: 'Report', input: { times: 30, gapMs: 2 } } }] }, { reply: 'done' }], 'go', { mods: [reporter] })
    expect(run.result).toMatchObject({ subtype: 'success', result: 'done' })
    const progress = progressOf(run.messages)
    expect(progress).toHaveLength(1)
    expect(progress[0]).toEqual({
      type: 'tool_progress', tool_use_id: 'toolu_rep', tool_name: 'Report', parent_tool_use_id: null,
      elapsed_time_seconds: expect.any(Number), uuid: expect.any(String), session_id: run.result.session_id,
    })
    // Seconds, not milliseconds: within the whole run's duration.
    expect(progress[0].elapsed_time_seconds).toBeLessThanOrEqual(run.result.duration_ms / 1000)
    const at = run.messages.indexOf(progress[0])
    const answered = run.messages.findIndex((m) => m.type === 'user' && (m.message.content as any[])[0]?.tool_use_id === 'toolu_rep')
    expect(at).toBeGreaterThan(-1)
    expect(at).toBeLessThan(answered)
  })

  it('Bash reports a command still running, once a second', async () => {
    const run = await runScript([{ reply: [{ tool_use: { id: 'toolu_sh', name: 'Bash', input: { command: 'sleep 1.3; echo slept' } } }] }, { reply: 'done' }], 'go', {
      cwd: tmp.dir, mods: [bash],
    })
    expect(run.result).toMatchObject({ subtype: 'success' })
    const progress = progressOf(run.messages)
    expect(progress.length).toBeGreaterThanOrEqual(1)
    expect(progress[0]).toMatchObject({ tool_use_id: 'toolu_sh', tool_name: 'Bash', parent_tool_use_id: null })
    expect(progress[0].elapsed_time_seconds).toBeGreaterThanOrEqual(0.9)
  })
})
