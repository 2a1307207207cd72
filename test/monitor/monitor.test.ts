import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import tasksMod from '../../mods/tasks/index.js'
import bashMod from '../../mods/bash/index.js'
import monitorMod from '../../mods/monitor/index.js'
import permissionsMod from '../../mods/permissions/index.js'
import { groupRunning } from '../../mods/bash/kill-group.js'
import { gates, runTasks, system, toolResultOf, type TaskRun } from '../tasks/helpers.js'
import { cmd, dump, dumped, hooksMod, makeBox, script, writeSettings } from '../shell-hooks/helpers.js'

let cwd: string
beforeAll(async () => { cwd = await realpath(await mkdtemp(join(tmpdir(), 'modloop-monitor-'))) })
afterAll(() => rm(cwd, { recursive: true, force: true }))

// TaskStop's task_id in a script cannot know the random id: `the-monitor` stands for the running one.
const monitorId = defineMod({
  name: 'monitor-id',
  register(on) {
    on('tool.call', ($, e, next) => (e.tool === 'TaskStop' && e.task_id === 'the-monitor' ? next({ ...e, task_id: $.task.list()[0]!.id }) : next(e)))
  },
})

const options = (extra: unknown[] = []) => ({ cwd, mods: [bashMod, tasksMod, monitorMod, monitorId, ...extra] as never, env: { MODLOOP_HOME: join(cwd, '.home') } })
const monitor = (command: string, more: Record<string, unknown> = {}) => ({ reply: [{ tool_use: { id: 'toolu_mon', name: 'Monitor', input: { description: 'the watch', command, ...more } } }] })
/** Every text the model was sent after the Monitor call, over all requests, in order (each request's new user message). */
const told = (run: TaskRun) => run.requests.map((r) => JSON.stringify(r.body.messages.at(-1).content)).join('\n')
const events = (run: TaskRun) => [...told(run).matchAll(/<event>(.*?)<\/event>/g)].map((m) => JSON.parse(`"${m[1]}"`) as string)
const file = (name: string) => join(cwd, name)

describe('Monitor: a background command whose stdout lines reach the model as events', () => {
  it('starts as a background task (local_bash) and returns at once; its events and its end join the running turn beside the next tool result', async () => {
    const g = gates()
    const run = await runTasks([
      monitor('echo first; echo second'),
      { reply: [{ tool_use: { id: 'toolu_gate', name: 'Gate', input: { label: 'ended' } } }] },
      { reply: 'done' },
    ], 'go', options([g.mod]), (m) => { if (m.type === 'system' && m.subtype === 'task_notification') g.open('ended') })
    expect(run.error).toBeUndefined()
    const start = toolResultOf(run, 'toolu_mon')
    const id = start.result.taskId as string
    expect(start.result).toEqual({ taskId: id, timeoutMs: 300_000, persistent: false })
    expect(start.text).toMatch(new RegExp(`^Monitor started as task ${id}\\. It expires in 5m unless`))
    expect(system(run, 'task_started')).toEqual([expect.objectContaining({ task_id: id, task_type: 'local_bash', description: 'the watch', tool_use_id: 'toolu_mon', is_backgrounded: true })])
    expect(system(run, 'task_notification')).toEqual([expect.objectContaining({ task_id: id, status: 'completed', summary: 'Monitor "the watch" stream ended' })])
    // The lines were printed together: one batch. Then the end, in the same user message as the Gate's result.
    const joined = run.requests[2]!.body.messages.at(-1).content as { type: string; text?: string }[]
    expect(joined[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_gate' })
    const texts = joined.slice(1).map((b) => b.text!)
    expect(texts[0]).toContain(`<task-id>${id}</task-id>\n<summary>Monitor event: "the watch"</summary>\n<event>first\nsecond</event>\n</task-notification>`)
    expect(texts[0]).toMatch(/^An automated event from a background task, not a message from the user/)
    expect(texts.at(-1)).toContain('<status>completed</status>\n<summary>Monitor "the watch" stream ended</summary>')
    expect(run.results.map((r) => r.result)).toEqual(['done'])
  })

  it('after the answer, each batch is a turn of its own; stderr makes no event but is in the output file; the exit code is reported', async () => {
    const go = file('go-after')
    const run = await runTasks([
      monitor(`echo err-line >&2; until [ -f ${go} ]; do sleep 0.02; done; echo tick; exit 3`),
      { reply: 'answered' }, { reply: 'ok1' }, { reply: 'ok2' },
    ], 'go', options(), async (m) => { if (m.type === 'result' && m.result === 'answered') await writeFile(go, '') })
    expect(run.error).toBeUndefined()
    expect(events(run)).toEqual(['tick'])
    const end = system(run, 'task_notification')
    expect(end).toEqual([expect.objectContaining({ status: 'failed', summary: 'Monitor "the watch" script failed (exit 3)' })])
    expect(told(run)).toContain('<status>failed</status>')
    expect(await readFile(end[0]!.output_file, 'utf8')).toBe('err-line\ntick\n')
    expect(run.results[0]!.result).toBe('answered')
    expect(run.results.length).toBeGreaterThanOrEqual(2)
  })

  it('expires at timeout_ms: one notice with the event count, its process group killed, and no second report', async () => {
    const pid = file('pid-expiry')
    const run = await runTasks([
      monitor(`echo $$ > ${pid}; echo start; sleep 1000`, { timeout_ms: 1000 }),
      { reply: 'answered' }, { reply: 'ok1' }, { reply: 'ok2' }, { reply: 'ok3' },
    ], 'go', options())
    expect(run.error).toBeUndefined()
    expect(toolResultOf(run, 'toolu_mon').text).toContain('It expires in 1s unless')
    expect(events(run)).toEqual(['start', '[Monitor expired after 1s; 1 event was delivered. Start it again if the watch is still needed.]'])
    expect(system(run, 'task_notification')).toEqual([expect.objectContaining({ status: 'stopped', summary: 'the watch' })])
    expect(told(run)).not.toContain('<status>')
    expect(await groupRunning(Number(await readFile(pid, 'utf8')))).toBe(false)
  })

  it('TaskStop cancels it: the call says so, the stream shows it stopped, the model is not told again, its group is gone', async () => {
    const pid = file('pid-stop')
    const run = await runTasks([
      monitor(`echo $$ > ${pid}; while :; do sleep 0.05; done`),
      // Stopped once it has written its pid, which the end of the test reads.
      { reply: [{ tool_use: { name: 'Bash', input: { command: `until [ -s ${pid} ]; do sleep 0.02; done` } } }] },
      { reply: [{ tool_use: { id: 'toolu_stop', name: 'TaskStop', input: { task_id: 'the-monitor' } } }] },
      { reply: 'stopped' },
    ], 'go', options())
    expect(run.error).toBeUndefined()
    const id = toolResultOf(run, 'toolu_mon').result.taskId
    expect(toolResultOf(run, 'toolu_stop').text).toBe(`Stopped task ${id} (the watch)`)
    expect(system(run, 'task_notification')).toEqual([expect.objectContaining({ task_id: id, status: 'stopped' })])
    expect(told(run)).not.toContain('<task-notification>')
    expect(await groupRunning(Number(await readFile(pid, 'utf8')))).toBe(false)
  })

  it('the session\'s end stops a monitor still running, with its process group', async () => {
    const pid = file('pid-end')
    const run = await runTasks([
      monitor(`echo $$ > ${pid}; while :; do sleep 0.05; done`),
      { reply: [{ tool_use: { name: 'Bash', input: { command: `until [ -s ${pid} ]; do sleep 0.02; done` } } }] },
      { reply: 'answered' },
    ], 'go', options(), (m, q) => { if (m.type === 'result') q.close() })
    expect(run.error).toBeUndefined()
    expect(existsSync(pid)).toBe(true)
    expect(await groupRunning(Number(await readFile(pid, 'utf8')))).toBe(false)
  })

  it('a command that exits leaves nothing of its process group running: what it started in the background ends with the watch', async () => {
    const pid = file('pid-leftover')
    const run = await runTasks([
      monitor(`sleep 1000 >/dev/null 2>&1 & echo $$ > ${pid}; echo up`),
      { reply: 'answered' }, { reply: 'ok1' }, { reply: 'ok2' }, { reply: 'ok3' },
    ], 'go', options())
    expect(run.error).toBeUndefined()
    expect(system(run, 'task_notification')).toEqual([expect.objectContaining({ status: 'completed' })])
    expect(await groupRunning(Number(await readFile(pid, 'utf8')))).toBe(false)
  })

  it('once it expires, nothing of it follows the expiry notice: not even the count of the window\'s held-back notifications', async () => {
    const mods = [bashMod, tasksMod, ['monitor', { batchMs: 0, maxEventsPerWindow: 1, windowMs: 50, maxFloodedWindows: 1000 }]]
    // SIGTERM ignored: its group takes the kill's whole grace period to end, while the gate's windows close.
    const run = await runTasks([
      monitor('trap "" TERM; while :; do echo spam; sleep 0.01; done', { timeout_ms: 1000 }),
      { reply: 'answered' }, ...Array.from({ length: 40 }, (_, i) => ({ reply: `ok${i}` })),
    ], 'go', { cwd, mods: mods as never, env: { MODLOOP_HOME: join(cwd, '.home') } })
    expect(run.error).toBeUndefined()
    expect(events(run).at(-1)).toMatch(/^\[Monitor expired after 1s; /)
    expect(system(run, 'task_notification')).toEqual([expect.objectContaining({ status: 'stopped', summary: 'the watch' })])
  })

  it('a monitor that keeps flooding is held back, then stopped, and the model is told to narrow it', async () => {
    const mods = [bashMod, tasksMod, ['monitor', { batchMs: 0, maxEventsPerWindow: 1, windowMs: 100, maxFloodedWindows: 2 }]]
    const run = await runTasks([
      monitor('while :; do echo spam; sleep 0.01; done'),
      { reply: 'answered' }, ...Array.from({ length: 20 }, (_, i) => ({ reply: `ok${i}` })),
    ], 'go', { cwd, mods: mods as never, env: { MODLOOP_HOME: join(cwd, '.home') } })
    expect(run.error).toBeUndefined()
    expect(events(run).some((e) => /^\[\d+ notifications? held back: this monitor sends more than 1 every 100ms\./.test(e))).toBe(true)
    expect(system(run, 'task_notification')).toEqual([expect.objectContaining({ status: 'stopped', summary: 'Monitor "the watch" was stopped: too many events' })])
    expect(told(run)).toContain('<result>It kept printing more lines than can be reported')
  })
})

describe('Monitor and permissions: Bash rules cover its command', () => {
  it('a Bash deny rule blocks a Monitor command; a read-only command is not approved unasked; a Bash allow rule approves it', async () => {
    const run = await runTasks([
      monitor('rm -rf nothing-here'),
      { reply: [{ tool_use: { id: 'toolu_cat', name: 'Monitor', input: { description: 'reads', command: 'cat /dev/null' } } }] },
      { reply: [{ tool_use: { id: 'toolu_ok', name: 'Monitor', input: { description: 'allowed', command: 'echo allowed' } } }] },
      { reply: 'done' }, { reply: 'ok1' }, { reply: 'ok2' },
    ], 'go', { ...options([permissionsMod]), disallowedTools: ['Bash(rm *)'], allowedTools: ['Bash(echo *)'] })
    expect(run.error).toBeUndefined()
    expect(toolResultOf(run, 'toolu_mon').text).toContain('Permission to use Monitor has been denied by the rule Bash(rm *)')
    expect(toolResultOf(run, 'toolu_cat').text).not.toMatch(/^Monitor started/)
    expect(toolResultOf(run, 'toolu_ok').text).toMatch(/^Monitor started/)
    expect(system(run, 'task_started').map((m) => m.description)).toEqual(['allowed'])
  })
})

describe('Monitor and settings hooks', () => {
  it('PreToolUse hooks matching Bash see its command as a Bash call, and their deny refuses it; Monitor hooks see the call itself', async () => {
    const box = await makeBox()
    try {
      const deny = await script(box, 'deny-rm.sh', `input=$(cat); echo "$input" >> ${box.out}/Bash.jsonl; case "$input" in *'rm -rf'*) echo 'no removals' >&2; exit 2 ;; esac; exit 0\n`)
      await writeSettings(box, { PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`sh ${deny}`)] }, { matcher: 'Monitor', hooks: [cmd(dump(box, 'Monitor'))] }] })
      const run = await runTasks([
        monitor('rm -rf nothing-here'),
        { reply: [{ tool_use: { id: 'toolu_ok', name: 'Monitor', input: { description: 'fine', command: 'echo fine' } } }] },
        { reply: 'done' }, { reply: 'ok1' }, { reply: 'ok2' },
      ], 'go', { cwd: box.project, mods: [bashMod, tasksMod, monitorMod, hooksMod(box)] as never, trustWorkspace: true, env: { MODLOOP_HOME: join(box.root, 'modloop-home') } })
      expect(run.error).toBeUndefined()
      expect(toolResultOf(run, 'toolu_mon').text).toContain('no removals')
      expect(toolResultOf(run, 'toolu_ok').text).toMatch(/^Monitor started/)
      const bash = (await readFile(join(box.out, 'Bash.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l))
      expect(bash.map((h) => [h.tool_name, h.tool_input, h.tool_use_id])).toEqual([
        ['Bash', { command: 'rm -rf nothing-here', description: 'the watch' }, 'toolu_mon'],
        ['Bash', { command: 'echo fine', description: 'fine' }, 'toolu_ok'],
      ])
      // The refused call never reached the Monitor hooks; the other one did, under its own name.
      expect((await dumped(box, 'Monitor')).map((h) => [h.tool_name, h.tool_input.command])).toEqual([['Monitor', 'echo fine']])
    } finally {
      await box.remove()
    }
  })
})

describe('Monitor: the size of one notification', () => {
  it('a notification is cut at 30000 characters, as Bash\'s output is, and says where the whole output is; a line written in pieces arrives whole', async () => {
    const run = await runTasks([
      monitor(`printf ab; sleep 0.05; printf cd; echo ef; head -c 100000 /dev/zero | tr '\\0' x; echo; echo after`),
      { reply: 'answered' }, { reply: 'ok1' }, { reply: 'ok2' }, { reply: 'ok3' },
    ], 'go', options())
    expect(run.error).toBeUndefined()
    const out = system(run, 'task_notification')[0]!.output_file as string
    const all = events(run).join('\n')
    expect(all).toMatch(/^abcdef\n/)
    const long = events(run).find((e) => e.includes('xxxx'))!
    expect(long.length).toBeLessThan(30_400)
    expect(long).toContain(`[Cut at 30000 characters: the whole output is in ${out}; read it with Read.]`)
    expect((await readFile(out, 'utf8')).length).toBeGreaterThan(100_000)
  })
})

describe('Monitor: a command that cannot start', () => {
  it('a watch whose directory was removed reports the spawn error, not an end by a signal', async () => {
    const gone = join(cwd, 'gone')
    await mkdir(gone)
    const run = await runTasks([
      { reply: [{ tool_use: { name: 'Bash', input: { command: `rm -rf ${gone}` } } }] },
      monitor('echo never'),
      { reply: 'answered' }, { reply: 'ok1' }, { reply: 'ok2' },
    ], 'go', { ...options(), cwd: gone })
    expect(run.error).toBeUndefined()
    const end = system(run, 'task_notification')
    expect(end).toEqual([expect.objectContaining({ status: 'failed', summary: 'Monitor "the watch" could not start' })])
    expect(end[0]!.summary).not.toContain('signal')
    // told() is JSON: its newlines and quotes are escaped.
    expect(told(run)).toMatch(/<status>failed<\/status>\\n<summary>Monitor \\"the watch\\" could not start<\/summary>\\n<result>Its command could not be started: [^<]*ENOENT/)
  })
})
