import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import agentMod from '../../mods/agent/index.js'
import bashMod from '../../mods/bash/index.js'
import tasksMod from '../../mods/tasks/index.js'
import transcripts from '../../mods/transcripts/index.js'
import { sessionDirOf, transcriptPath } from '../../mods/transcripts/store/paths.js'
import '../../mods/_shared/tasks.js'
import { cmd, dump, dumped, hooksMod, makeBox, writeSettings, COMMON, TOOL_COMMON, keys, type Box } from '../shell-hooks/helpers.js'
import { withOptions } from '../helpers/with-options.js'
import { gates, lastUserText, runTasks, system, toolResultOf } from './helpers.js'

let root: string
let repo: string
let home: string
const GIT_ENV = { GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' }
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8' }).trim()

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'modloop-task-edges-')))
  repo = join(root, 'repo')
  home = join(root, 'home')
  await mkdir(repo)
  git('init', '-q', '-b', 'main')
  await writeFile(join(repo, 'notes.txt'), 'original\n')
  git('add', '.')
  git('commit', '-qm', 'start')
})
afterAll(() => rm(root, { recursive: true, force: true }))

const options = (mods: unknown[]) => ({ cwd: repo, mods: mods as never, env: { MODLOOP_HOME: home, ...GIT_ENV } })
const isolated = (id: string, prompt: string) => ({ tool_use: { id, name: 'Agent', input: { description: prompt, prompt, isolation: 'worktree', run_in_background: false } } })
const inSub = (prompt: string, reply: unknown) => ({ reply, when: { firstUserText: prompt } })
const bash = (command: string) => [{ tool_use: { name: 'Bash', input: { command } } }]

describe('isolation: "worktree"', () => {
  it('runs the subagent in a git worktree under the session directory, removed at the end unless it changed something', async () => {
    const run = await runTasks([
      { reply: [isolated('toolu_drop', 'drop job')] },
      inSub('drop job', bash('pwd; cat notes.txt')),
      inSub('drop job', 'looked, changed nothing'),
      { reply: [isolated('toolu_keep', 'keep job')] },
      inSub('keep job', bash('echo new > new.txt && git add new.txt && git commit -qm "sub work" && echo committed')),
      inSub('keep job', 'committed it'),
      { reply: 'both done' },
    ], 'go', options([bashMod, agentMod, tasksMod]))
    expect(run.error).toBeUndefined()
    const drop = toolResultOf(run, 'toolu_drop').result
    const keep = toolResultOf(run, 'toolu_keep').result
    const sessionDir = sessionDirOf(transcriptPath(repo, run.results[0]!.session_id, { MODLOOP_HOME: home }))
    const dropTree = join(sessionDir, 'worktrees', drop.agentId)
    // The subagent's shell ran in its worktree, and the project's own file is untouched.
    const pwd = run.requests.find((r) => JSON.stringify(r.body.messages[0]).includes('drop job') && lastUserText(r.body).includes(dropTree))
    expect(pwd).toBeDefined()
    expect(await readFile(join(repo, 'notes.txt'), 'utf8')).toBe('original\n')
    // Nothing changed: the worktree and its branch are gone.
    expect(existsSync(dropTree)).toBe(false)
    expect(git('branch', '--list', `modloop/task-${drop.agentId}`)).toBe('')
    expect(drop.worktreePath).toBeUndefined()
    // With a commit: kept, on its branch, and said so.
    const keepTree = join(sessionDir, 'worktrees', keep.agentId)
    expect(keep).toMatchObject({ worktreePath: keepTree, worktreeBranch: `modloop/task-${keep.agentId}` })
    expect(toolResultOf(run, 'toolu_keep').text).toContain(`made 1 commit; the worktree is kept`)
    expect(git('log', '--format=%s', `modloop/task-${keep.agentId}`, '-1')).toBe('sub work')
    const trees = git('worktree', 'list', '--porcelain').split('\n').filter((l) => l.startsWith('worktree ')).map((l) => l.slice('worktree '.length))
    expect(trees).toEqual([repo, keepTree])
    git('worktree', 'remove', '--force', keepTree)
  })

  it('keeps a worktree whose changes the subagent did not commit, and says so', async () => {
    const run = await runTasks([
      { reply: [isolated('toolu_dirty', 'dirty job')] },
      inSub('dirty job', bash('echo changed > notes.txt; echo new > added.txt')),
      inSub('dirty job', 'changed files, did not commit'),
      { reply: 'done' },
    ], 'go', options([bashMod, agentMod, tasksMod]))
    const dirty = toolResultOf(run, 'toolu_dirty')
    const tree = dirty.result.worktreePath as string
    expect(dirty.result).toMatchObject({ worktreePath: expect.stringContaining(dirty.result.agentId), worktreeBranch: `modloop/task-${dirty.result.agentId}` })
    expect(dirty.text).toContain(`where it left changes it did not commit; the worktree is kept`)
    expect(await readFile(join(tree, 'notes.txt'), 'utf8')).toBe('changed\n')
    expect(await readFile(join(tree, 'added.txt'), 'utf8')).toBe('new\n')
    expect(await readFile(join(repo, 'notes.txt'), 'utf8')).toBe('original\n')
    git('worktree', 'remove', '--force', tree)
    git('branch', '-D', `modloop/task-${dirty.result.agentId}`)
  })

  it('outside a git repository the call fails, naming why', async () => {
    const run = await runTasks([
      { reply: [{ tool_use: { id: 'toolu_nogit', name: 'Agent', input: { description: 'x', prompt: 'x', isolation: 'worktree' } } }] },
      { reply: 'ok' },
    ], 'go', { ...options([agentMod, tasksMod]), cwd: root })
    expect(toolResultOf(run, 'toolu_nogit').text).toContain(`isolation "worktree" needs a git repository: ${root} is not inside one`)
  })
})

describe('hooks and tasks', () => {
  let box: Box
  beforeAll(async () => { box = await makeBox() })
  afterAll(() => box.remove())

  it('a background report is a prompt: UserPromptSubmit fires for it; SubagentStart and SubagentStop keep their fields; Stop lists the running tasks', async () => {
    await writeSettings(box, Object.fromEntries(['UserPromptSubmit', 'SubagentStart', 'SubagentStop', 'Stop'].map((e) => [e, [{ hooks: [cmd(dump(box, e))] }]])))
    const g = gates()
    const run = await runTasks([
      { reply: [{ tool_use: { id: 'toolu_h', name: 'Agent', input: { description: 'bg', prompt: 'hooked job', run_in_background: true } } }] },
      inSub('hooked job', [{ tool_use: { name: 'Gate', input: { label: 'h' } } }]),
      inSub('hooked job', 'hooked report'),
      { reply: 'launched' },
      { reply: 'read the report' },
    ], 'go', { cwd: box.project, mods: [g.mod, hooksMod(box), withOptions(agentMod, { home: box.home }), tasksMod] as never, env: { MODLOOP_HOME: join(box.root, 'mh') } }, (m) => {
      if (m.type === 'result') g.open('h')
    })
    expect(run.results.map((r) => r.result)).toEqual(['launched', 'read the report'])
    const prompts = (await dumped(box, 'UserPromptSubmit')).map((p) => p.prompt as string)
    expect(prompts).toHaveLength(2)
    expect(prompts[0]).toBe('go')
    expect(prompts[1]).toMatch(/^An automated event from a background task, not a message from the user: [^\n]*\n\n<task-notification>\n<task-id>a[0-9a-f]{16}<\/task-id>/)
    const [start] = await dumped(box, 'SubagentStart')
    // SubagentStart carries no permission_mode, as in Claude Code.
    expect(keys(start!)).toEqual([...COMMON.filter((k) => k !== 'permission_mode'), 'agent_id', 'agent_type'].sort())
    const [stop] = await dumped(box, 'SubagentStop')
    expect(keys(stop!)).toEqual([...TOOL_COMMON, 'agent_id', 'agent_type', 'agent_transcript_path', 'background_tasks', 'last_assistant_message', 'session_crons', 'stop_hook_active'].sort())
    expect(stop).toMatchObject({ agent_id: start!.agent_id, last_assistant_message: 'hooked report' })
    expect(system(run, 'task_started')[0]!.task_id).toBe(start!.agent_id)
    // The main turn's Stop came while the agent ran in the background: it lists it.
    const [mainStop] = await dumped(box, 'Stop')
    expect(mainStop!.background_tasks).toEqual([{ id: start!.agent_id, type: 'subagent', status: 'running', description: 'bg', agent_type: 'general-purpose' }])
  })

  it('Stop labels a background shell "shell", as the hook input does', async () => {
    await writeSettings(box, { Stop: [{ hooks: [cmd(dump(box, 'Stop'))] }] })
    const run = await runTasks([
      { reply: [{ tool_use: { name: 'Bash', input: { command: 'sleep 30', description: 'wait a while', run_in_background: true } } }] },
      { reply: 'started it' },
    ], 'go', { cwd: box.project, mods: [hooksMod(box), bashMod, tasksMod] as never, env: { MODLOOP_HOME: join(box.root, 'mh2') } }, (m, q) => {
      // The shell would hold the stream for its 30 s: the result is all this test needs.
      if (m.type === 'result') q.close()
    })
    expect(run.error).toBeUndefined()
    const stops = await dumped(box, 'Stop')
    expect(stops.at(-1)!.background_tasks).toEqual([{ id: expect.stringMatching(/^bash_/), type: 'shell', status: 'running', description: 'wait a while' }])
  })
})

describe('faults', () => {
  it('a task whose work throws ends failed, reported to the model', async () => {
    // A mod's own task through the registry: its work throws.
    const crasher = defineMod({
      name: 'crasher',
      uses: { tasks: 'optional' },
      register(on) {
        on('session.start', async ($, e, next) => {
          await $.tool.register({
            name: 'Crash', description: 'Starts a task that crashes', isReadOnly: true, input: (await import('zod')).z.object({}),
            call: async (_i: unknown, ctx: { sessionId: string; toolUseId: string }) => {
              const r = await $.capability.use('tasks')!(ctx.sessionId)!.launch({
                type: 'local_bash', description: 'doomed', background: true, holdsSession: true, toolUseId: ctx.toolUseId,
                run: async () => { await new Promise((r) => setImmediate(r)); throw new Error('the work blew up') },
              })
              return { result: 'refused' in r ? r.refused : r.task.id }
            },
          } as never)
          return next(e)
        })
      },
    })
    const run = await runTasks([
      { reply: [{ tool_use: { name: 'Crash', input: {} } }] },
      { reply: 'started' },
      { reply: 'it crashed', expect: { lastUserText: '<status>failed</status>' } },
    ], 'go', options([crasher, tasksMod]))
    expect(system(run, 'task_notification')[0]).toMatchObject({ status: 'failed', summary: 'Background command "doomed" failed: the work blew up' })
    expect(system(run, 'task_updated')[0]!.patch).toMatchObject({ status: 'failed', error: 'the work blew up' })
    expect(lastUserText(run.requests.at(-1)!.body)).toContain('<summary>Background command "doomed" failed: the work blew up</summary>')
    expect(run.results.map((r) => r.result)).toEqual(['started', 'it crashed'])
  })

  it('resuming a session whose process died with tasks running marks them stopped, with a note for the model', async () => {
    const first = await runTasks([{ reply: 'first' }], 'hello', options([transcripts, tasksMod]))
    const sessionId = first.results[0]!.session_id
    const dir = join(sessionDirOf(transcriptPath(repo, sessionId, { MODLOOP_HOME: home })), 'tasks')
    await mkdir(dir, { recursive: true })
    const stale = { id: 'a00000000000000aa', type: 'local_agent', description: 'long job', status: 'running', background: true, outputFile: join(dir, 'a00000000000000aa.output'), startTime: 1 }
    await writeFile(join(dir, `${stale.id}.json`), JSON.stringify(stale))
    await writeFile(join(dir, 'a00000000000000bb.json'), JSON.stringify({ ...stale, id: 'a00000000000000bb', status: 'completed' }))
    const resumed = await runTasks([{ reply: 'noted', expect: { lastUserText: 'still running when the previous modloop process of this session ended' } }], 'next', { ...options([transcripts, tasksMod]), resume: sessionId })
    expect(resumed.results[0]!.result).toBe('noted')
    expect(lastUserText(resumed.requests[0]!.body)).toContain(`- a00000000000000aa: Agent "long job" (its output so far: ${stale.outputFile})`)
    expect(JSON.parse(await readFile(join(dir, `${stale.id}.json`), 'utf8'))).toMatchObject({ status: 'stopped', endTime: expect.any(Number), note: expect.stringContaining('still running') })
    expect(JSON.parse(await readFile(join(dir, 'a00000000000000bb.json'), 'utf8')).status).toBe('completed')
    expect(system(resumed, 'informational').map((m) => m.content)).toContainEqual(expect.stringContaining('a00000000000000aa'))
  })

  it('a background task stopped as its session ended is told to the model when the session is resumed, once', async () => {
    const bg = [{ tool_use: { name: 'Bash', input: { command: 'sleep 30', run_in_background: true, description: 'long sleep' } } }]
    // The session ends (close) while the command still runs: no turn tells the model it stopped.
    const first = await runTasks([{ reply: bg }, { reply: 'started' }], 'go', options([transcripts, tasksMod, bashMod]), (m, q) => {
      if (m.type === 'result') q.close()
    })
    const sessionId = first.results[0]!.session_id
    const taskId = system(first, 'task_started')[0]!.task_id as string
    const said = 'still running when the previous modloop process of this session ended'
    const resumed = await runTasks([{ reply: 'noted' }], 'next', { ...options([transcripts, tasksMod, bashMod]), resume: sessionId })
    expect(lastUserText(resumed.requests[0]!.body)).toContain(said)
    expect(lastUserText(resumed.requests[0]!.body)).toContain(`- ${taskId}: Background command "long sleep"`)
    const again = await runTasks([{ reply: 'ok' }], 'more', { ...options([transcripts, tasksMod, bashMod]), resume: sessionId })
    expect(lastUserText(again.requests[0]!.body)).not.toContain(said)
  })

  it('a background task stopped while a turn ran, its report joined to that turn, is not told again on resume', async () => {
    const g = gates()
    const bg = [{ tool_use: { id: 'toolu_sh', name: 'Bash', input: { command: 'sleep 30', run_in_background: true, description: 'long sleep' } } }]
    const first = await runTasks([
      { reply: bg },
      { reply: [{ tool_use: { name: 'Gate', input: { label: 'stopped' } } }] },
      { reply: 'saw it stop', expect: { lastUserText: '<status>stopped</status>' } },
    ], 'go', options([g.mod, transcripts, tasksMod, bashMod]), (m, q) => {
      if (m.type === 'user' && JSON.stringify(m.message.content).includes('toolu_sh')) void q.stopTask('bash_1')
      if (m.type === 'system' && m.subtype === 'task_notification') g.open('stopped')
      if (m.type === 'result') q.close()
    })
    expect(first.results.map((r) => r.result)).toEqual(['saw it stop'])
    const resumed = await runTasks([{ reply: 'ok' }], 'next', { ...options([transcripts, tasksMod, bashMod]), resume: first.results[0]!.session_id })
    expect(lastUserText(resumed.requests[0]!.body)).not.toContain('still running when the previous modloop process')
  })
})
