import { mkdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import bash from '../../mods/bash/index.js'
import { groupAlive, openTools, tempDir, type Tools } from './harness.js'

let tmp: Awaited<ReturnType<typeof tempDir>>
let tools: Tools

beforeAll(async () => {
  tmp = await tempDir()
  await mkdir(join(tmp.dir, 'sub'))
  tools = await openTools(tmp.dir, [bash])
})
afterAll(async () => {
  await tools.close()
  await tmp.remove()
})

const pidIn = (text: string) => Number(/^pid (\d+)/m.exec(text)![1])
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Dead orphans stay in the group until init reaps them, which can take a couple of seconds. */
async function expectGroupGone(pgid: number): Promise<void> {
  for (let i = 0; i < 200 && groupAlive(pgid); i++) await sleep(20)
  expect(() => process.kill(-pgid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }))
}

describe('Bash', () => {
  it('runs a command and reports stdout, stderr and success', async () => {
    const r = await tools.call('Bash', { command: 'echo out; echo err >&2', description: 'Print two lines' })
    expect(r.isError).toBe(false)
    // One stream, as in Claude Code: stderr is read in stdout, where it was written.
    expect(r.result).toEqual({ stdout: 'out\nerr\n', stderr: '', interrupted: false, isImage: false, exitCode: 0 })
    expect(r.text).toBe('out\nerr')
  })

  it('shows error lines among the output lines in the order they were written', async () => {
    const r = await tools.call('Bash', { command: 'echo a; echo b >&2; echo c; echo d >&2' })
    expect(r.text).toBe('a\nb\nc\nd')
  })

  it('reports a non-zero exit as an error, except exit 1 of grep, test and friends', async () => {
    const fail = await tools.call('Bash', { command: 'echo partial; exit 3' })
    expect(fail).toMatchObject({ isError: true, text: 'Exit code 3\npartial', result: { exitCode: 3 } })
    const grep = await tools.call('Bash', { command: 'echo abc | grep zzz' })
    expect(grep).toMatchObject({ isError: false, result: { exitCode: 1, returnCodeInterpretation: 'No matches found' } })
    expect((await tools.call('Bash', { command: '[ -f /nonexistent ]' })).isError).toBe(false)
    expect((await tools.call('Bash', { command: 'ls /nonexistent-dir-xyz' })).isError).toBe(true)
  })

  it('puts a failing exit code first, before output however long, as in Claude Code', async () => {
    const r = await tools.call('Bash', { command: 'seq 1 10000; exit 2' })
    expect(r.text.startsWith('Exit code 2\n1\n2\n')).toBe(true)
    expect(r.text.length).toBeLessThanOrEqual(30_000)
    expect(r.text.split('\n').filter((l) => l.startsWith('Exit code'))).toEqual(['Exit code 2'])
  })

  it('keeps the working directory across calls, only inside the allowed directories', async () => {
    await tools.call('Bash', { command: 'cd sub' })
    expect((await tools.call('Bash', { command: 'pwd' })).text).toBe(join(tmp.dir, 'sub'))
    const out = await tools.call('Bash', { command: 'cd / && pwd' })
    expect(out.text).toContain('reset to')
    expect((await tools.call('Bash', { command: 'pwd' })).text).toBe(tmp.dir)
  })

  it('keeps the directory a failing command moved to for that command only, as in Claude Code', async () => {
    const failed = await tools.call('Bash', { command: 'cd sub && false' })
    expect(failed.text).toBe('Exit code 1')
    expect((await tools.call('Bash', { command: 'pwd' })).text).toBe(tmp.dir)
    // Nothing moved, so nothing to reset: no note.
    expect((await tools.call('Bash', { command: 'cd / && ls /nonexistent-dir-xyz' })).text).not.toContain('reset to')
    expect((await tools.call('Bash', { command: 'pwd' })).text).toBe(tmp.dir)
  })

  it('starts over in the session directory when the one it was in is gone, and says so', async () => {
    await mkdir(join(tmp.dir, 'gone'))
    await tools.call('Bash', { command: 'cd gone' })
    await rm(join(tmp.dir, 'gone'), { recursive: true })
    const r = await tools.call('Bash', { command: 'pwd' })
    expect(r.text).toBe(`${tmp.dir}\nThe previous working directory ${join(tmp.dir, 'gone')} no longer exists; the shell started in ${tmp.dir}.`)
  })

  it('caps output at 30,000 characters, keeping head and tail', async () => {
    const r = await tools.call('Bash', { command: "printf 'HEAD'; head -c 100000 /dev/zero | tr '\\0' x; printf 'TAIL'" })
    const stdout = (r.result as { stdout: string }).stdout
    expect(stdout.length).toBeLessThan(30_200)
    expect(stdout.startsWith('HEAD')).toBe(true)
    expect(stdout.endsWith('TAIL')).toBe(true)
    expect(stdout).toContain('characters of output truncated')
  })

  it('runs a command whose timeout is 0 with the default timeout, as Claude Code does', async () => {
    expect(await tools.call('Bash', { command: 'echo ran', timeout: 0 })).toMatchObject({ isError: false, text: 'ran' })
  })
})

// Each waits on init's reaping, so they run side by side.
describe.concurrent('Bash ends process groups', () => {
  it('on timeout kills the whole process group and keeps the partial output', async () => {
    // The command would sleep 30 s, past the test's own timeout: the call ending at all is the timeout at work.
    const r = await tools.call('Bash', { command: 'echo pid $$; echo before; sleep 30 & sleep 30', timeout: 300 })
    expect(r).toMatchObject({ isError: true, result: { interrupted: true, timedOut: true } })
    expect(r.text).toContain('before')
    expect(r.text).toContain('timed out after 300 ms')
    await expectGroupGone(pidIn(r.text))
  })

  it('a process ignoring SIGTERM is killed after the grace period', async () => {
    const r = await tools.call('Bash', { command: "echo pid $$; trap '' TERM; sleep 30 & wait", timeout: 200 })
    expect(r.result).toMatchObject({ interrupted: true })
    await expectGroupGone(pidIn(r.text))
  })

  it('on abort kills the group too', async () => {
    const abort = new AbortController()
    const pidFile = join(tmp.dir, 'abort.pid')
    const pending = tools.call('Bash', { command: `echo $$ > ${pidFile}; sleep 30 & sleep 30` }, { signal: abort.signal })
    await sleep(300)
    abort.abort()
    const r = await pending
    expect(r).toMatchObject({ isError: true, interrupted: true })
    await expectGroupGone(Number(await readFile(pidFile, 'utf8')))
  })

  it('stops what a finished command left running in the background', async () => {
    const r = await tools.call('Bash', { command: 'echo pid $$; sleep 30 > /dev/null 2>&1 &' })
    expect(r.text).toContain('left running in the background were stopped')
    await expectGroupGone(pidIn(r.text))
  })
})

describe('background shells', () => {
  it('run_in_background returns an id; BashOutput returns new output and status', async () => {
    const started = await tools.call('Bash', { command: 'echo one; echo two; echo oops >&2', run_in_background: true })
    expect(started.result).toMatchObject({ backgroundTaskId: 'bash_1' })
    await sleep(200)
    const first = await tools.call('BashOutput', { bash_id: 'bash_1' })
    expect(first.result).toMatchObject({ shellId: 'bash_1', status: 'completed', exitCode: 0, stdout: 'one\ntwo\noops\n', stderr: '', stdoutLines: 3 })
    expect(first.text).toContain('<status>completed</status>')
    const again = await tools.call('BashOutput', { bash_id: 'bash_1' })
    expect(again.result).toMatchObject({ stdout: '', stderr: '' })
    expect(again.text).toContain('no new output')
  })

  it('keeps error lines among the output lines in the order they were written', async () => {
    const started = await tools.call('Bash', { command: 'echo a; echo b >&2; echo c; echo d >&2', run_in_background: true })
    const id = (started.result as { backgroundTaskId: string }).backgroundTaskId
    await sleep(200)
    expect((await tools.call('BashOutput', { bash_id: id })).result).toMatchObject({ stdout: 'a\nb\nc\nd\n', stderr: '' })
  })

  it('BashOutput filters lines; KillShell stops a shell and its group', async () => {
    const started = await tools.call('Bash', { command: 'echo pid $$; echo keep-1; echo drop; echo keep-2; sleep 30', run_in_background: true })
    const id = (started.result as { backgroundTaskId: string }).backgroundTaskId
    await sleep(200)
    const out = await tools.call('BashOutput', { bash_id: id, filter: 'keep|pid' })
    const stdout = (out.result as { stdout: string }).stdout
    expect(stdout).toContain('keep-1\nkeep-2')
    expect(stdout).not.toContain('drop')
    const killed = await tools.call('KillShell', { shell_id: id })
    expect(killed.result).toEqual({ message: expect.stringContaining(`Stopped shell ${id}`), shell_id: id })
    expect((await tools.call('BashOutput', { bash_id: id })).result).toMatchObject({ status: 'killed' })
    await expectGroupGone(pidIn(stdout))
    expect(await tools.call('KillShell', { shell_id: id })).toMatchObject({ isError: true, text: expect.stringContaining('not running') })
    expect(await tools.call('KillShell', { shell_id: 'bash_99' })).toMatchObject({ isError: true, text: expect.stringContaining('No background shell') })
  })

  it('every background shell is killed when the session ends', async () => {
    const own = await openTools(tmp.dir, [bash])
    await own.call('Bash', { command: 'echo pid $$; sleep 30', run_in_background: true })
    await sleep(150)
    const stdout = ((await own.call('BashOutput', { bash_id: 'bash_1' })).result as { stdout: string }).stdout
    await own.close()
    await expectGroupGone(pidIn(stdout))
  })
})

describe('a background shell that is over', () => {
  it('has its group id never signalled again once its group was found empty: by then it may be someone else\'s', async () => {
    const { BackgroundShells } = await import('../../mods/bash/background-shells.js')
    const shells = new BackgroundShells(() => process.env)
    const done = shells.start('true', tmp.dir)
    const leaving = shells.start('sleep 30 & exit 0', tmp.dir)
    await Promise.all([done.exited, leaving.exited])
    for (let i = 0; i < 200 && !done.groupGone; i++) await sleep(10)
    expect(done.groupGone).toBe(true)
    // The shell that left a child running still has its group: that one is ended at the session's end.
    expect(leaving.groupGone).toBeFalsy()
    const kill = vi.spyOn(process, 'kill')
    try {
      await shells.killAll(100)
      shells.killAllNow()
      await shells.kill(done)
      const signalled = kill.mock.calls.map(([pid]) => pid)
      expect(signalled).not.toContain(-done.pgid)
      expect(signalled).toContain(-leaving.pgid)
    } finally {
      kill.mockRestore()
    }
    await expectGroupGone(leaving.pgid)
  })
})

describe('a background shell\'s output file', () => {
  /** Runs `command` in a background shell with these file limits; answers its output file once the file stops changing. */
  async function savedOutput(command: string, limits: { fileChars: number; backlogChars: number }) {
    const { BackgroundShells } = await import('../../mods/bash/background-shells.js')
    const shells = new BackgroundShells(() => process.env, limits)
    const path = join(tmp.dir, `out-${limits.fileChars}-${limits.backlogChars}`, 'out.txt')
    const shell = shells.start(command, tmp.dir, '', path)
    await shell.exited
    let saved = ''
    for (let last = -1, i = 0; i < 200 && saved.length !== last; i++) {
      last = saved.length
      await sleep(50)
      saved = await readFile(path, 'utf8').catch(() => '')
    }
    return { shells, shell, saved }
  }

  it('says how much it left out while the disk fell behind, to the last character', async () => {
    const { shells, saved } = await savedOutput('seq 1 300000', { fileChars: 1e9, backlogChars: 1 })
    const notes = [...saved.matchAll(/\n\[(\d+) characters are not saved here: the disk fell behind\]\n/g)]
    const kept = saved.length - notes.reduce((sum, m) => sum + m[0].length, 0)
    const left = notes.reduce((sum, m) => sum + Number(m[1]), 0)
    const total = Array.from({ length: 300000 }, (_, i) => `${i + 1}\n`).join('').length
    expect(kept + left).toBe(total)
    await shells.killAll()
  })

  it('stops at its cap with a note, while BashOutput still gets the output', async () => {
    const { shells, shell, saved } = await savedOutput('seq 1 2000', { fileChars: 1_000, backlogChars: 1_000_000 })
    expect(saved).toMatch(/\n\[output past 1000 characters is not saved\]\n$/)
    expect(saved.length).toBeLessThan(1_100)
    expect(shell.stdout.take().text.split('\n')).toHaveLength(2_001)
    await shells.killAll()
  })
})
