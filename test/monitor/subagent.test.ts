import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import type { SDKMessage } from '../../core/loop/messages.js'
import agentMod from '../../mods/agent/index.js'
import bashMod from '../../mods/bash/index.js'
import monitorMod from '../../mods/monitor/index.js'
import tasksMod from '../../mods/tasks/index.js'
import '../../mods/_shared/subagents.js'
import { gates, runTasks, system } from '../tasks/helpers.js'

let cwd: string
beforeAll(async () => { cwd = await realpath(await mkdtemp(join(tmpdir(), 'modloop-monitor-sub-'))) })
afterAll(() => rm(cwd, { recursive: true, force: true }))

const SIDE = 'side job: watch the build'
const launch = { tool_use: { id: 'toolu_bg', name: 'Agent', input: { description: 'watch the build', prompt: SIDE, run_in_background: true } } }
const sub = (reply: unknown, when: Record<string, string> = {}) => ({ reply, when: { firstUserText: SIDE, ...when } })
const options = (extra: unknown[] = []) => ({ cwd, mods: [agentMod, bashMod, tasksMod, monitorMod, ...extra] as never, env: { MODLOOP_HOME: join(cwd, '.home') } })
const subRequests = (requests: { body: any }[]) => requests.filter((r) => JSON.stringify(r.body.messages[0]).includes(SIDE))

describe('Monitor in a subagent: its events go to that subagent', () => {
  it('a subagent\'s monitor events and its end join the subagent\'s next tool round, never the main conversation', async () => {
    const g = gates()
    const run = await runTasks([
      { reply: [launch] },
      sub([{ tool_use: { id: 'toolu_smon', name: 'Monitor', input: { description: 'sub watch', command: 'echo EVT-ONE' } } }]),
      sub([{ tool_use: { name: 'Gate', input: { label: 'mon-ended' } } }]),
      sub('saw the event', { lastUserText: 'stream ended' }),
      { reply: 'waiting' },
      { reply: 'noted', expect: { lastUserText: '<result>saw the event</result>' } },
    ], 'go', options([g.mod]), (m) => {
      // The monitor's end is shown once its last line was handed on.
      if (m.type === 'system' && m.subtype === 'task_notification' && (m as { summary?: string }).summary?.includes('sub watch')) g.open('mon-ended')
    })
    expect(run.error).toBeUndefined()
    const afterGate = subRequests(run.requests).at(-1)!.body.messages.at(-1).content as { type: string; text?: string }[]
    expect(afterGate[0]).toMatchObject({ type: 'tool_result' })
    const texts = afterGate.slice(1).map((b) => b.text ?? '').join('\n')
    expect(texts).toContain('<summary>Monitor event: "sub watch"</summary>\n<event>EVT-ONE</event>')
    expect(texts).toContain('<summary>Monitor "sub watch" stream ended</summary>')
    // The main conversation never saw it start, and hears nothing of it.
    const main = run.requests.filter((r) => !JSON.stringify(r.body.messages[0]).includes(SIDE)).map((r) => JSON.stringify(r.body.messages))
    expect(main.some((t) => t.includes('EVT-ONE') || t.includes('sub watch'))).toBe(false)
    expect(run.results.map((r) => r.result)).toEqual(['waiting', 'noted'])
  })

  it('an event that comes after the subagent\'s last tool round is dropped with its run: it does not resume the subagent', async () => {
    // Gives the subagent an event as its final answer is recorded, as a monitor's line printed then would.
    const late = defineMod({
      name: 'late-event',
      uses: { subagents: 'optional' },
      register(on) {
        on('session.message', async ($, e, next) => {
          const m = e.message as SDKMessage
          if (e.agentId && m.type === 'assistant' && JSON.stringify(m.message.content).includes('the report')) {
            expect($.capability.use('subagents')?.($.session.id())?.notify(e.agentId, 'LATE-EVENT')).toBe(true)
          }
          return next(e)
        })
      },
    })
    const run = await runTasks([
      { reply: [launch] },
      sub('the report'),
      { reply: 'waiting' },
      { reply: 'n1', expect: { lastUserText: '<result>the report</result>' } },
    ], 'go', options([late]))
    expect(run.error).toBeUndefined()
    expect(JSON.stringify(run.requests.map((r) => r.body))).not.toContain('LATE-EVENT')
    expect(system(run, 'task_started')).toHaveLength(1)
    expect(run.results.map((r) => r.result)).toEqual(['waiting', 'n1'])
  })
})
