import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import type { SDKMessage } from '../../core/loop/messages.js'
import agentMod from '../../mods/agent/index.js'
import tasksMod from '../../mods/tasks/index.js'
import sendMessageMod from '../../mods/send-message/index.js'
import '../../mods/_shared/subagents.js'
import { gates, runTasks, system, toolResultOf } from '../tasks/helpers.js'

let cwd: string
beforeAll(async () => {
  cwd = await realpath(await mkdtemp(join(tmpdir(), 'modloop-sendmsg-')))
})
afterAll(() => rm(cwd, { recursive: true, force: true }))

const SIDE = 'side job: count the notes'
const launch = { tool_use: { id: 'toolu_bg', name: 'Agent', input: { description: 'count the notes', prompt: SIDE, run_in_background: true } } }
const sub = (reply: unknown, when: Record<string, string> = {}) => ({ reply, when: { firstUserText: SIDE, ...when } })
const gate = (label: string) => [{ tool_use: { name: 'Gate', input: { label } } }]
const send = (id: string, to: string, message: string) => ({ tool_use: { id, name: 'SendMessage', input: { to, summary: 'a note', message } } })

/**
 * The agent's id is random, so a script cannot name it: the model's `to: "AGENT"` becomes the id
 * the launch receipt gave, as the model would have copied it.
 */
function agentIds() {
  let id = ''
  const mod = defineMod({
    name: 'agent-id',
    register(on) {
      on('tool.call', (_$, e, next) => next(e.tool === 'SendMessage' && e.to === 'AGENT' ? { ...e, to: id } : e))
    },
  })
  const seen = (m: SDKMessage) => {
    const r = (m as { tool_use_result?: { agentId?: string } }).tool_use_result
    if (m.type === 'user' && !id && r?.agentId) id = r.agentId
  }
  return { mod, seen, get id() { return id } }
}

const isToolResult = (m: SDKMessage, id: string) => m.type === 'user' && Array.isArray(m.message.content) && m.message.content.some((b: any) => b.type === 'tool_result' && b.tool_use_id === id)
const options = (mods: unknown[]) => ({ cwd, mods: [agentMod, tasksMod, sendMessageMod, ...mods] as never, env: { MODLOOP_HOME: join(cwd, '.home') } })
const userTexts = (body: any) => body.messages.flatMap((m: any) => (m.role !== 'user' || typeof m.content === 'string' ? [m.content] : m.content.map((b: any) => b.text ?? '')))

describe('SendMessage and ListAgents', () => {
  it('a message to a running background subagent joins its next tool round', async () => {
    const g = gates()
    const ids = agentIds()
    const run = await runTasks([
      { reply: [launch] },
      sub(gate('one')),
      { reply: [send('toolu_send', 'AGENT', 'MSG-ONE: also count the drafts')] },
      { reply: 'sent', expect: { toolResults: 1 } },
      sub('six notes, two drafts', { lastUserText: 'MSG-ONE' }),
      { reply: 'noted', expect: { lastUserText: '<task-notification>' } },
    ], 'go', options([g.mod, ids.mod]), (m) => {
      ids.seen(m)
      if (isToolResult(m, 'toolu_send')) g.open('one')
    })
    expect(run.error).toBeUndefined()
    // The launch receipt tells the model how to reach the agent.
    expect(toolResultOf(run, 'toolu_bg').text).toContain(`To give it more instructions, or to continue it once it is done, use SendMessage with to: '${ids.id}'.`)
    expect(JSON.parse(toolResultOf(run, 'toolu_send').text)).toEqual({
      success: true,
      message: `Message queued for ${ids.id}: it reads it when its current tool round ends. Should it finish before then, it runs again with the message and reports again; wait for that report rather than sending the message twice. Should it be stopped first, the message is kept for the next one you send it.`,
    })
    // The subagent's request after its gate carries the message beside the gate's result.
    const after = run.requests.find((r) => JSON.stringify(r.body.messages[0]).includes(SIDE) && JSON.stringify(r.body.messages.at(-1)).includes('MSG-ONE'))!
    const last = after.body.messages.at(-1).content
    expect(last[0]).toMatchObject({ type: 'tool_result' })
    expect(last.at(-1)).toEqual({ type: 'text', text: 'The main conversation sent you a message while you worked:\nMSG-ONE: also count the drafts\n\nDeal with it before you finish your task.' })
    expect(run.results.map((r) => r.result)).toEqual(['sent', 'noted'])
  })

  it('a message to a completed subagent resumes it from its history, as a background task that reports again; ListAgents lists it', async () => {
    const g = gates()
    const ids = agentIds()
    const run = await runTasks([
      { reply: [launch] },
      sub(gate('two'), { lastUserText: 'RESUME-MSG' }),
      sub('first report'),
      sub('second report'),
      { reply: 'waiting' },
      { reply: [{ tool_use: { id: 'toolu_list', name: 'ListAgents', input: {} } }, send('toolu_send', 'AGENT', 'RESUME-MSG: now the drafts')], expect: { lastUserText: '<result>first report</result>' } },
      { reply: 'resumed it' },
      { reply: 'final', expect: { lastUserText: '<result>second report</result>' } },
    ], 'go', options([g.mod, ids.mod]), (m) => {
      ids.seen(m)
      if (m.type === 'result' && m.result === 'resumed it') g.open('two')
    })
    expect(run.error).toBeUndefined()
    const id = ids.id
    expect(toolResultOf(run, 'toolu_list').text).toMatch(new RegExp(`^Subagents \\(1\\):\\n  ${id}  -  general-purpose  -  completed  -  started \\d+s ago$`))
    expect(JSON.parse(toolResultOf(run, 'toolu_send').text)).toEqual({ success: true, message: `Resuming agent ${id.slice(0, 7)}`, resumedAgentId: id })
    // It runs again with its whole history: its prompt, its first report, then the message.
    const resumed = run.requests.find((r) => JSON.stringify(r.body.messages.at(-1)).includes('RESUME-MSG'))!
    expect(resumed.body.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(JSON.stringify(resumed.body.messages[1])).toContain('first report')
    expect(userTexts(resumed.body).at(-1)).toBe('The main conversation sent you a message while you worked:\nRESUME-MSG: now the drafts\n\nDeal with it before you finish your task.')
    // The stream shows a second task under the same id, started by the SendMessage call, and its report comes back as a turn.
    expect(system(run, 'task_started').map((m) => [m.task_id, m.tool_use_id])).toEqual([[id, 'toolu_bg'], [id, 'toolu_send']])
    // Its progress in the resumed run is that task's, counted afresh, as Claude Code's is.
    expect(system(run, 'task_progress').map((m) => [m.task_id, m.tool_use_id, m.last_tool_name, (m.usage as { tool_uses: number }).tool_uses])).toEqual([[id, 'toolu_send', 'Gate', 1]])
    expect(system(run, 'task_notification').map((m) => m.status)).toEqual(['completed', 'completed'])
    const report = userTexts(run.requests.at(-1)!.body).at(-1)
    expect(report).toContain(`<task-id>${id}</task-id>`)
    expect(report).toContain('<tool-use-id>toolu_send</tool-use-id>')
    expect(run.results.map((r) => r.result)).toEqual(['waiting', 'resumed it', 'final'])
  })

  it('an unknown name, and "main" from the main conversation, are refused with Claude Code\'s texts; ListAgents with no subagents says so', async () => {
    const run = await runTasks([
      { reply: [send('toolu_a', 'nobody', 'hi'), send('toolu_b', 'main', 'hi'), { tool_use: { id: 'toolu_c', name: 'ListAgents', input: {} } }] },
      { reply: 'done' },
    ], 'go', options([]))
    expect(run.error).toBeUndefined()
    expect(JSON.parse(toolResultOf(run, 'toolu_a').text)).toEqual({ success: false, message: "No agent named 'nobody' is reachable.\nUse ListAgents to see everyone you can message." })
    expect(JSON.parse(toolResultOf(run, 'toolu_b').text)).toEqual({ success: false, message: 'You are the main conversation - "main" addresses you. Send to a named agent instead.' })
    expect(toolResultOf(run, 'toolu_c').text).toBe('No agents to message: this session has started no subagents.')
    // Neither asks: there is nothing to approve.
    const tools = run.requests[0]!.body.tools.map((t: any) => t.name)
    expect(tools).toEqual(expect.arrayContaining(['SendMessage', 'ListAgents']))
  })

  it('a background subagent writes to "main": the message joins the main conversation\'s next tool round, marked as an agent\'s words', async () => {
    const g = gates()
    const run = await runTasks([
      { reply: [launch] },
      sub([send('toolu_up', 'main', 'HELLO-MAIN: halfway there')]),
      sub(gate('sub')),
      sub('all done'),
      { reply: gate('main') },
      { reply: 'got it', expect: { lastUserText: '<agent-message' } },
      { reply: 'ok', expect: { lastUserText: '<task-notification>' } },
    ], 'go', options([g.mod]), (m) => {
      if (m.type === 'user' && m.parent_tool_use_id && isToolResult(m, 'toolu_up')) g.open('main')
      if (m.type === 'result' && m.result === 'got it') g.open('sub')
    })
    expect(run.error).toBeUndefined()
    const up = run.messages.find((m) => m.type === 'user' && m.parent_tool_use_id && isToolResult(m, 'toolu_up')) as any
    expect(JSON.parse(up.message.content[0].content)).toEqual({ success: true, message: "Message queued for the main conversation's next turn." })
    const id = (toolResultOf(run, 'toolu_bg').result as { agentId: string }).agentId
    const joined = run.requests.find((r) => !JSON.stringify(r.body.messages[0]).includes(SIDE) && JSON.stringify(r.body.messages.at(-1)).includes('agent-message'))!
    const last = joined.body.messages.at(-1).content
    expect(last[0]).toMatchObject({ type: 'tool_result' })
    expect(last.at(-1).text).toContain(`<agent-message from="${id}">\nHELLO-MAIN: halfway there\n</agent-message>`)
    expect(last.at(-1).text).toContain('not from the user')
    // A background subagent may write, but not list (spec §7.3).
    const subTools = run.requests.find((r) => JSON.stringify(r.body.messages[0]).includes(SIDE))!.body.tools.map((t: any) => t.name)
    expect(subTools).toContain('SendMessage')
    expect(subTools).not.toContain('ListAgents')
    expect(run.results.map((r) => r.result)).toEqual(['got it', 'ok'])
  })
  it('a message that reaches a subagent after its last tool round is not lost: it runs again with it and reports again', async () => {
    const g = gates()
    // Sends as the subagent's final answer is recorded: it has no tool round left to read it in.
    const late = defineMod({
      name: 'late-sender',
      uses: { subagents: 'optional' },
      register(on) {
        on('session.message', async ($, e, next) => {
          const m = e.message as SDKMessage
          if (e.agentId && m.type === 'assistant' && JSON.stringify(m.message.content).includes('first report')) {
            await $.capability.use('subagents')?.($.session.id())?.send(e.agentId, 'LATE: and the drafts', { toolUseId: 'toolu_late' } as never)
          }
          return next(e)
        })
      },
    })
    const run = await runTasks([
      { reply: [launch] },
      sub(gate('late'), { lastUserText: 'LATE' }),
      sub('first report'),
      sub('second report'),
      { reply: 'waiting' },
      { reply: 'n1', expect: { lastUserText: '<result>first report</result>' } },
      { reply: 'n2', expect: { lastUserText: '<result>second report</result>' } },
    ], 'go', options([g.mod, late]), (m) => { if (m.type === 'result' && m.result === 'n1') g.open('late') })
    expect(run.error).toBeUndefined()
    const resumed = run.requests.find((r) => JSON.stringify(r.body.messages.at(-1)).includes('LATE'))!
    expect(resumed.body.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(system(run, 'task_started').map((m) => m.tool_use_id)).toEqual(['toolu_bg', 'toolu_bg'])
    expect(run.results.map((r) => r.result)).toEqual(['waiting', 'n1', 'n2'])
  })
})

describe('SendMessage to a subagent that is then stopped', () => {
  it('a message queued for a running subagent that is stopped before reading it is kept: the next message resumes it with both', async () => {
    const g = gates()
    const ids = agentIds()
    let stopping = false
    const run = await runTasks([
      { reply: [launch] },
      sub(gate('never')),
      { reply: [send('toolu_one', 'AGENT', 'MSG-ONE: also the drafts')] },
      { reply: gate('stopped') },
      { reply: [send('toolu_two', 'AGENT', 'MSG-TWO: and the archive')] },
      { reply: 'resumed it' },
      sub('both done', { lastUserText: 'MSG-TWO' }),
      { reply: 'final', expect: { lastUserText: '<result>both done</result>' } },
    ], 'go', options([g.mod, ids.mod]), (m, q) => {
      ids.seen(m)
      if (isToolResult(m, 'toolu_one') && !stopping) {
        stopping = true
        void q.stopTask(ids.id)
      }
      if (m.type === 'system' && m.subtype === 'task_notification' && (m as { status?: string }).status === 'stopped') g.open('stopped')
    })
    expect(run.error).toBeUndefined()
    expect(JSON.parse(toolResultOf(run, 'toolu_two').text)).toMatchObject({ success: true, resumedAgentId: ids.id })
    const resumed = run.requests.find((r) => JSON.stringify(r.body.messages.at(-1)).includes('MSG-TWO'))!
    const last = userTexts(resumed.body).at(-1) as string
    expect(last).toContain('MSG-ONE: also the drafts')
    expect(last.indexOf('MSG-ONE')).toBeLessThan(last.indexOf('MSG-TWO'))
    expect(run.results.map((r) => r.result).at(-1)).toBe('final')
  })
})

describe('Finished subagents are not kept for ever', () => {
  it('past maxFinishedAgents the oldest finished subagent is released: SendMessage says it can no longer be resumed, ListAgents leaves it out', async () => {
    const ids = agentIds()
    const OTHER = 'other job: sort the notes'
    const run = await runTasks([
      { reply: [launch] },
      sub('report A'),
      { reply: 'waiting' },
      { reply: [{ tool_use: { id: 'toolu_b', name: 'Agent', input: { description: 'sort the notes', prompt: OTHER, run_in_background: true } } }], expect: { lastUserText: '<result>report A</result>' } },
      { reply: 'report B', when: { firstUserText: OTHER } },
      { reply: 'waiting again' },
      { reply: [send('toolu_old', 'AGENT', 'STILL-THERE?'), { tool_use: { id: 'toolu_list', name: 'ListAgents', input: {} } }], expect: { lastUserText: '<result>report B</result>' } },
      { reply: 'done' },
    ], 'go', { ...options([ids.mod]), mods: [['agent', { maxFinishedAgents: 1 }], tasksMod, sendMessageMod, ids.mod] as never }, (m) => ids.seen(m))
    expect(run.error).toBeUndefined()
    const b = (toolResultOf(run, 'toolu_b').result as { agentId: string }).agentId
    expect(JSON.parse(toolResultOf(run, 'toolu_old').text)).toEqual({
      success: false,
      message: `Agent ${ids.id} ended and was released: this session keeps the last 1 finished subagents to resume. Start a new agent, with what it needs from this one's report.`,
    })
    expect(toolResultOf(run, 'toolu_list').text).toMatch(new RegExp(`^Subagents \\(1\\):\\n  ${b}  -  general-purpose  -  completed  -  started \\d+s ago$`))
    // It was not resumed: no request of it carries the message.
    expect(run.requests.filter((r) => JSON.stringify(r.body.messages[0]).includes(SIDE)).some((r) => JSON.stringify(r.body).includes('STILL-THERE'))).toBe(false)
    expect(system(run, 'task_started')).toHaveLength(2)
  })
})
