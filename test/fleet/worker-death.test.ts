import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it, onTestFailed } from 'vitest'
import { isPrompt, isTurnResult, type MessageEntry } from '../../mods/transcripts/store/entry.js'
import { chainTo, parseTranscript } from '../../mods/transcripts/store/transcript-read.js'
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.js'
import { cli, freshDatabase, jobRows, sql, tempDir, until } from './helpers.js'
import { builtCli } from '../helpers/built-cli.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const children: (ChildProcess & { log: string[] })[] = []
let fake: FakeAnthropic | undefined
let dir: string | undefined

afterAll(async () => {
  // The Bash call the killed worker left behind waits for this file; then nothing of the test runs on.
  if (dir) writeFileSync(join(dir, 'release'), '')
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  await fake?.close()
})

/** A worker process of the built CLI, with short recovery settings. */
function worker(url: string, cwd: string, env: Record<string, string>): ChildProcess & { log: string[] } {
  expect(existsSync(join(root, 'dist', 'bin', 'main.cjs')), 'run `npm run build` first').toBe(true)
  const child = spawn(process.execPath, [builtCli(), 'worker', '--queue', url, '--grace-seconds', '1', '--reap-seconds', '0.3', '--poll-seconds', '0.5'], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] }) as ChildProcess & { log: string[] }
  child.log = []
  child.stderr!.on('data', (d) => child.log.push(String(d)))
  children.push(child)
  return child
}

describe('a worker killed with kill -9 mid-session', () => {
  // Bounds a hang only (two worker processes start on a shared machine); nothing here asserts a duration.
  it('the job is picked up by the other worker, which resumes the session from the store and finishes it: one whole transcript', { timeout: 60_000 }, async () => {
    const url = await freshDatabase()
    const cwd = tempDir('fleet-death')
    dir = tempDir('fleet-death-marks')
    writeFileSync(join(cwd, 'modloop.config.json'), JSON.stringify({ mods: ['transcripts', 'bash'] }))
    const wait = `echo $$ > ${dir}/bash.pid; touch ${dir}/started; while [ ! -f ${dir}/release ]; do sleep 0.05; done`
    fake = await startFakeAnthropic({ script: [
      { reply: [{ tool_use: { name: 'Bash', input: { command: wait } } }] },
      { reply: [{ tool_use: { name: 'Bash', input: { command: 'echo from the second worker' } } }], expect: { lastUserText: 'Carry on with the task' } },
      { reply: 'finished on the second worker' },
    ] })
    const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'test', MODLOOP_HOME: tempDir('death-home') }
    const first = worker(url, cwd, env)
    // What each side saw, should this ever hang or fail.
    onTestFailed(async () => {
      const jobs = await jobRows(url).catch((err: unknown) => String(err))
      console.log(`first worker:\n${first.log.join('')}\nsecond worker:\n${children[1]?.log.join('')}\nrequests: ${fake?.requests.length}\njobs: ${JSON.stringify(jobs)}`)
    })
    const submitted = await cli(['submit', '--queue', url, '-p', 'a task that outlives its worker'], cwd, {})
    const id = submitted.out.trim()
    await until(async () => (existsSync(join(dir!, 'started')) ? true : undefined))
    const second = worker(url, cwd, env)
    await until(async () => (second.log.join('').includes('takes jobs') ? true : undefined))
    first.kill('SIGKILL')

    const job = await until(async () => (await jobRows(url)).find((r) => r.id === id && r.state === 'completed'))
    expect(job.output?.result).toMatchObject({ result: 'finished on the second worker', is_error: false, session_id: job.data.sessionId })
    const [run] = await sql<{ attempts: number; worker: string }>(url, 'SELECT attempts, worker FROM modloop.job_run WHERE job_id = $1', [id])
    expect(run).toMatchObject({ attempts: 2, worker: expect.stringContaining(`:${second.pid}:`) })
    expect(second.log.join('')).toContain(`job ${id} lost its worker; back on the queue`)

    // One session, one chain: the first worker's prompt and tool call, then the second worker's lines hanging from them.
    const lines = await sql<{ line: string }>(url, `SELECT line FROM modloop.session_line WHERE session_id = $1 AND agent_id = '' ORDER BY seq`, [job.data.sessionId])
    const chain = chainTo(parseTranscript(lines.map((l) => `${l.line}\n`).join('')).entries)
    const block = (e: MessageEntry) => (e.message as { content: { type: string; text?: string }[] }).content[0]!
    const shape = chain.map((e) => (isPrompt(e) ? `prompt: ${block(e).text!.slice(0, 22)}` : isTurnResult(e) ? 'result' : `${e.type}${e.type === 'assistant' ? `: ${block(e).type}` : ''}`))
    expect(shape).toEqual([
      'prompt: a task that outlives i', 'assistant: tool_use',
      'prompt: The run of this job st', 'assistant: tool_use', 'user', 'assistant: text', 'result',
    ])
    expect(chain).toHaveLength(lines.length)
    // The resumed request carried the whole history: the first run's call, answered as cut off.
    const resumed = fake.requests[1]!.body as { messages: { role: string; content: { type: string; content?: string }[] }[] }
    expect(resumed.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'user'])
    expect(JSON.stringify(resumed.messages[2])).toContain('Not run to completion')
    expect(JSON.stringify(resumed.messages[3])).toContain('Carry on with the task')
    second.kill('SIGTERM')
    expect(await new Promise((r) => second.once('exit', (code) => r(code)))).toBe(0)
    expect(readFileSync(join(dir, 'bash.pid'), 'utf8').trim()).toMatch(/^\d+$/)
  })
})

// A second signal during the drain used to leave the worker's stop unfinished: the process ran out of
// work and exited without its last word ("stopped: … handed back").
it('a second SIGINT during the drain hands the job back at once and the worker ends as it should', { timeout: 60_000 }, async () => {
  const url = await freshDatabase()
  const cwd = tempDir('fleet-signals')
  writeFileSync(join(cwd, 'modloop.config.json'), JSON.stringify({ mods: ['transcripts', 'bash'] }))
  const script = join(cwd, 'script.json')
  writeFileSync(script, JSON.stringify([{ reply: [{ tool_use: { name: 'Bash', input: { command: 'sleep 30' } } }] }]))
  const id = (await cli(['submit', '--queue', url, '-p', 'a long task', '--script', script], cwd, {})).out.trim()
  const w = worker(url, cwd, { MODLOOP_HOME: tempDir('signals-home') })
  await until(async () => ((await sql(url, `SELECT 1 FROM modloop.job_message WHERE job_id = $1 AND message LIKE '%"tool_use"%'`, [id])).length > 0 ? true : undefined))
  w.kill('SIGINT')
  await until(async () => (w.log.join('').includes('SIGINT: finishing') ? true : undefined))
  w.kill('SIGINT')
  expect(await new Promise((r) => w.once('exit', (code) => r(code)))).toBe(0)
  expect(w.log.join('')).toContain('stopped: 0 completed, 0 failed, 1 handed back')
  expect((await jobRows(url)).find((r) => r.id === id)!.state).toBe('retry')
})
