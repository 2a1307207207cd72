import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { shapeProblems } from '../helpers/sdk-shapes.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-bg-cli-')))
  // Gate waits until the main conversation's first result is recorded (`after-result`), or for ever.
  await writeFile(join(dir, 'gate.mjs'), `import { z } from 'zod'
let resulted
const firstResult = new Promise((resolve) => { resulted = resolve })
export function register(on) {
  on('session.message', (_$, e, next) => {
    if (e.message.type === 'result' && !e.agentId) resulted()
    return next(e)
  })
  on('session.start', async ($, e, next) => {
    await $.tool.register({ name: 'Gate', description: 'Waits', input: z.object({ until: z.string() }), isReadOnly: true, call: (i, ctx) => new Promise((resolve, reject) => {
      if (i.until === 'after-result') firstResult.then(() => resolve({ result: 'opened' }))
      ctx.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true })
    }) })
    return next(e)
  })
}
`)
  await writeFile(join(dir, 'modloop.config.json'), JSON.stringify({ mods: ['tasks', 'agent', './gate.mjs'] }))
  // A project whose background shell waits for the file \`released\`, written once the first result is recorded.
  await mkdir(join(dir, 'shells'))
  await writeFile(join(dir, 'shells', 'release.mjs'), `import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
export function register(on) {
  on('session.message', ($, e, next) => {
    if (e.message.type === 'result' && !e.agentId) writeFileSync(join($.session.cwd(), 'released'), '')
    return next(e)
  })
}
`)
  await writeFile(join(dir, 'shells', 'modloop.config.json'), JSON.stringify({ mods: ['tasks', 'bash', './release.mjs'] }))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const SIDE = 'side job'
const script = (until: string) => [
  { reply: [{ tool_use: { id: 'toolu_bg', name: 'Agent', input: { description: 'side job', prompt: SIDE, run_in_background: true } } }] },
  { reply: [{ tool_use: { name: 'Gate', input: { until } } }], when: { firstUserText: SIDE } },
  { reply: 'side job done', when: { firstUserText: SIDE } },
  { reply: 'started it' },
  { reply: 'all done', expect: { lastUserText: '<result>side job done</result>' } },
]

async function streamJson(args: string[], steps: unknown, cwd = dir) {
  const r = await runCli(['-p', 'go', '--output-format', 'stream-json', '--verbose', ...args], { script: steps, cwd, env: { MODLOOP_HOME: join(dir, 'home') } })
  if (!r.out.trim()) throw new Error(r.err)
  const lines = r.out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>)
  return { ...r, lines, kinds: lines.map((l) => `${l.type}${l.subtype ? `/${l.subtype}` : ''}`) }
}

describe('-p with background tasks', () => {
  it('waits for a running background agent; its report is a second turn with its own result line', async () => {
    const r = await streamJson([], script('after-result'))
    expect(r.code, r.err).toBe(0)
    expect(shapeProblems(r.lines)).toEqual([])
    const results = r.lines.filter((l) => l.type === 'result')
    expect(results.map((l) => l.result)).toEqual(['started it', 'all done'])
    // The first result came while the task still ran (its gate opens on that result); the task's end, then the second turn.
    const first = r.kinds.indexOf('result/success')
    expect(r.kinds.indexOf('system/task_started')).toBeLessThan(first)
    expect(first).toBeLessThan(r.kinds.indexOf('system/task_updated'))
    expect(r.kinds.indexOf('system/task_updated')).toBeLessThan(r.kinds.indexOf('system/task_notification'))
    expect(r.kinds.indexOf('system/task_notification')).toBeLessThan(r.kinds.lastIndexOf('system/init'))
    expect(r.lines.at(-1)).toMatchObject({ type: 'result', origin: { kind: 'task-notification' } })
  })

  it('waits for a background shell the model started: it finishes, and its end is a second turn', async () => {
    const r = await streamJson([], [
      { reply: [{ tool_use: { name: 'Bash', input: { command: 'until [ -f released ]; do sleep 0.05; done; echo built', description: 'the build', run_in_background: true } } }] },
      { reply: 'started it' },
      { reply: 'the build finished', expect: { lastUserText: '<status>completed</status>' } },
    ], join(dir, 'shells'))
    expect(r.code, r.err).toBe(0)
    expect(shapeProblems(r.lines)).toEqual([])
    expect(r.lines.filter((l) => l.type === 'result').map((l) => l.result)).toEqual(['started it', 'the build finished'])
    expect(r.lines.find((l) => l.subtype === 'task_notification')).toMatchObject({ status: 'completed', summary: 'Background command "the build" completed (exit code 0)' })
    expect(r.kinds.indexOf('result/success')).toBeLessThan(r.kinds.indexOf('system/task_notification'))
  })

  it('text prints each turn\'s answer: the prompt\'s, then the background shell\'s report, a blank line between', async () => {
    await rm(join(dir, 'shells', 'released'), { force: true })
    const r = await runCli(['-p', 'go'], {
      script: [
        { reply: [{ tool_use: { name: 'Bash', input: { command: 'until [ -f released ]; do sleep 0.05; done', description: 'the build', run_in_background: true } } }] },
        { reply: 'started it' },
        { reply: 'the build finished', expect: { lastUserText: '<status>completed</status>' } },
      ],
      cwd: join(dir, 'shells'), env: { MODLOOP_HOME: join(dir, 'home') },
    })
    expect(r.code, r.err).toBe(0)
    expect(r.out).toBe('started it\n\nthe build finished\n')
  })

  it('--max-wait-tasks bounds the wait: the task is stopped, shown so, and no turn runs for it', async () => {
    const r = await streamJson(['--max-wait-tasks', '0.2'], script('never'))
    expect(r.code, r.err).toBe(0)
    expect(r.lines.filter((l) => l.type === 'result').map((l) => l.result)).toEqual(['started it'])
    expect(r.lines.find((l) => l.subtype === 'task_notification')).toMatchObject({ status: 'stopped', summary: 'side job' })
    expect(r.lines.at(-1)).toMatchObject({ subtype: 'background_tasks_changed', tasks: [] })
    // Why the run did not end with its answer, and why it ended as it did, on stderr.
    expect(r.err).toMatch(/waiting for 1 background task to end \(a[0-9a-f]+: side job\); at most 0\.2 s \(--max-wait-tasks\)/)
    expect(r.err).toContain('stopped waiting after 0.2 s (--max-wait-tasks): the background tasks still running are stopped')
  })

  it('--max-turns bounds it too: a budget the first turn spent stops the task at once', async () => {
    const r = await streamJson(['--max-turns', '2'], script('never'))
    expect(r.code, r.err).toBe(0)
    expect(r.lines.filter((l) => l.type === 'result').map((l) => l.result)).toEqual(['started it'])
    expect(r.lines.find((l) => l.subtype === 'task_notification')).toMatchObject({ status: 'stopped' })
    expect(r.err).toContain('maxTurns (2) is spent')
  })
})
