import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { constants, tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, describe, expect, it } from 'vitest'
import { builtCli, builtModloop } from '../helpers/built-cli.js'
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.js'
import { lastUserText } from './hook-project.js'
import { expectCleanEnd, faultyEnv, leftoversOf, parseStream } from './run-faulty.js'
import { groupRunning } from '../../mods/bash/kill-group.js'

// The built CLI as a real process, stopped by a signal while a Bash command runs and while a model
// response is stalled. Sync is on markers (a pid file the command writes, the request the server
// got), never on the clock. The cases run at once.

const dirs: string[] = []
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))))

async function project(): Promise<{ cwd: string; ended: string }> {
  const cwd = await realpath(await mkdtemp(join(tmpdir(), 'modloop-faults-signals-')))
  dirs.push(cwd)
  const ended = join(cwd, 'ended.json')
  await mkdir(join(cwd, '.claude'))
  await writeFile(join(cwd, '.claude', 'settings.json'), JSON.stringify({ hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: `cat > ${ended}` }] }] } }))
  return { cwd, ended }
}

/** The CLI started on `-p go` in stream-json against `server`: what it printed, and its end. */
function start(cwd: string, server: FakeAnthropic, extra: string[] = []) {
  const child = spawn(process.execPath, [builtCli(), '-p', 'go', '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions', ...extra], {
    cwd, env: faultyEnv(cwd, server.url), stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout.on('data', (d) => (out += d))
  child.stderr.on('data', (d) => (err += d))
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })))
  return { child, ended, out: () => out, err: () => err }
}

/** Polls a marker the run leaves (a file, a request) until it is there. */
async function until<T>(probe: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const v = probe()
    if (v !== undefined) return v
    await sleep(25)
  }
  throw new Error(`never saw ${what}`)
}

const pidIn = (file: string) => () => {
  const text = existsSync(file) ? readFileSync(file, 'utf8').trim() : ''
  return text ? Number(text) : undefined
}

// The command records its shell's pid, then waits on a grandchild in the background and a child.
const longBash = (pidFile: string) => [{ reply: [{ tool_use: { name: 'Bash', input: { command: `echo $$ > ${pidFile}; sleep 600 & sleep 600` } } }] }, { reply: 'never' }]

describe.concurrent('-p stopped by a signal', () => {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const code = 128 + constants.signals[signal]

    it(`${signal} mid-tool: exit ${code}, the Bash tree killed, its call answered, SessionEnd run, the lock released`, async () => {
      const { cwd, ended } = await project()
      const pidFile = join(cwd, 'shell.pid')
      const server = await startFakeAnthropic({ script: longBash(pidFile) })
      try {
        const run = start(cwd, server)
        await until(pidIn(pidFile), 'the Bash command start')
        run.child.kill(signal)
        expect((await run.ended).code, run.err()).toBe(code)
        expect(run.err()).toContain(`modloop: stopped by ${signal}`)
        const { messages, result } = parseStream(run.out())
        expect(result).toMatchObject({ is_error: true, terminal_reason: 'aborted_tools' })
        expect(JSON.parse(await readFile(ended, 'utf8'))).toMatchObject({ hook_event_name: 'SessionEnd', reason: 'other' })
        expect(server.requests).toHaveLength(1)
        await expectCleanEnd(cwd, { messages })
      } finally {
        await server.close()
      }
    }, 60_000)

    it(`${signal} mid-request (a stalled response): exit ${code}, SessionEnd run, the lock released`, async () => {
      const { cwd, ended } = await project()
      const server = await startFakeAnthropic({ script: [{ reply: 'never', stallAfter: 1 }] })
      try {
        const run = start(cwd, server)
        await until(() => (server.requests.length > 0 ? true : undefined), 'the model request')
        // The response has begun (message_start) once the assistant's stream is open; the signal comes while it is silent.
        run.child.kill(signal)
        expect((await run.ended).code, run.err()).toBe(code)
        const { messages, result } = parseStream(run.out())
        expect(result).toMatchObject({ is_error: true, terminal_reason: 'aborted_streaming' })
        expect(JSON.parse(await readFile(ended, 'utf8'))).toMatchObject({ hook_event_name: 'SessionEnd', reason: 'other' })
        await expectCleanEnd(cwd, { messages })
      } finally {
        await server.close()
      }
    }, 60_000)
  }

  it('kill -9 mid-tool, then --resume: the command is ended all the same, the lock is taken over, the cut call is answered, the session goes on', async () => {
    const { cwd } = await project()
    const pidFile = join(cwd, 'shell.pid')
    const server = await startFakeAnthropic({ script: [...longBash(pidFile).slice(0, 1), { reply: 'resumed', expect: { lastUserText: 'again' } }] })
    try {
      const run = start(cwd, server)
      await until(pidIn(pidFile), 'the Bash command start')
      // The first progress beat comes after the run listed the command's group with its guard (the
      // same turn of its event loop spawned the command and wrote the line).
      await until(() => (run.out().includes('"type":"tool_progress"') ? true : undefined), 'a progress beat of the command')
      run.child.kill('SIGKILL')
      expect((await run.ended).signal).toBe('SIGKILL')
      // No exit handler ran: the command's group (its shell, a child and a grandchild in the
      // background) is ended by the run's group guard, which saw the run's end as its stdin closing.
      const shell = pidIn(pidFile)()!
      for (let i = 0; i < 600 && (await groupRunning(shell)); i++) await sleep(25)
      // What is left of the group, and the guard, with their open files: what a failure needs to be read.
      const diag = () => spawnSync('sh', ['-c', `ps -eo pid,ppid,pgid,sid,stat,lstart,args | grep -E " ${shell} |ids=" | grep -v grep; for p in $(pgrep -g ${shell}) $(pgrep -f "ids="); do echo "fds of $p:"; ls -l /proc/$p/fd 2>&1 | tail -n +2; done; echo "run pid ${run.child.pid}"`]).stdout.toString()
      const alive = await groupRunning(shell)
      expect(alive, alive ? diag() : '').toBe(false)
      const sessionId = parseStream(run.out()).messages.find((m) => m.session_id)!.session_id as string
      const again = await builtModloop(['-p', 'again', '--resume', sessionId, '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions'], { cwd, env: faultyEnv(cwd, server.url) })
      const resumed = parseStream(again.out)
      expect(resumed.result, again.err).toMatchObject({ subtype: 'success', result: 'resumed', session_id: sessionId })
      expect(again.err).toContain('1 tool call had no result (the session stopped while it ran); answered with an error')
      // The tool_use the kill cut off reached the model answered, before the new prompt.
      const sent = server.requests[1]!.body.messages as { role: string; content: { type: string; tool_use_id?: string; is_error?: boolean }[] }[]
      expect(sent.at(-2)!.content).toEqual([expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_0_1', is_error: true })])
      expect(lastUserText(server.requests[1]!)).toContain('again')
      // The file keeps the cut call as it was (append-only); every read answers it the same way.
      await expectCleanEnd(cwd, resumed, { repaired: 1 })
    } finally {
      await server.close()
    }
  }, 60_000)

  it('SIGTERM after the reader of stdout and stderr went away: the run stops (no write-error loop), no process left, the lock released', async () => {
    const { cwd } = await project()
    const pidFile = join(cwd, 'shell.pid')
    const server = await startFakeAnthropic({ script: longBash(pidFile) })
    try {
      const run = start(cwd, server)
      await until(pidIn(pidFile), 'the Bash command start')
      run.child.stdout.destroy()
      run.child.stderr.destroy()
      run.child.kill('SIGTERM')
      expect((await run.ended).code).toBe(143)
      expect(await leftoversOf(cwd)).toEqual([])
      const sessions = join(cwd, 'home', '.modloop', 'projects')
      const files = (await readdir(sessions, { recursive: true })).map(String)
      expect(files.filter((f) => f.endsWith('.jsonl') && !f.endsWith('.trace.jsonl'))).toHaveLength(1)
      expect(files.filter((f) => f.endsWith('.lock'))).toEqual([])
    } finally {
      await server.close()
    }
  }, 60_000)
})
