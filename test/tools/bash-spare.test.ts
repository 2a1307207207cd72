import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import bash from '../../mods/bash/index.js'
import { runShell, type Env, type ShellOptions } from '../../mods/bash/run-shell.js'
import { SpareShell } from '../../mods/bash/spare-shell.js'
import { runScript } from '../loop/helpers.js'
import { childrenOf, groupAlive, tempDir, watchCallChildren } from './harness.js'

let tmp: Awaited<ReturnType<typeof tempDir>>
beforeAll(async () => {
  tmp = await tempDir()
  // Sourced by every non-interactive bash that has it in BASH_ENV: a line per bash that read it.
  await writeFile(join(tmp.dir, 'bash-env.sh'), `echo "$$" >> ${join(tmp.dir, 'sourced')}\n`)
})
afterAll(() => tmp.remove())

/** The pids whose parent is this process (children started by a spawn, waiting or running). */
const children = () => childrenOf(process.pid)

const options = (env: Env, spare?: SpareShell): ShellOptions => ({ cwd: tmp.dir, timeoutMs: 10_000, signal: new AbortController().signal, maxOutputChars: 100_000, env, spare })

/** Runs `command` once with a plain spawn and once through a spare made beforehand; the spare's pid too. */
async function both(command: string, env: Env) {
  const direct = await runShell(command, options(env))
  const spare = new SpareShell()
  expect(spare.take('true', tmp.dir, env)).toBeUndefined() // none yet: a spare is wanted from now on
  const before = children()
  spare.prepare(env)
  const made = [...children()].filter((pid) => !before.has(pid))
  const viaSpare = await runShell(command, options(env, spare))
  spare.dispose()
  return { direct, viaSpare, made }
}

describe('the spare bash (a command started while the model answers)', () => {
  // An environment a spawn passes on as it is, with what the bash in between would change.
  const env: Env = {
    PATH: process.env.PATH, HOME: '/home/nobody-here', SHLVL: '3', PWD: '/nowhere/stale', OLDPWD: '/before',
    'ODD-NAME': 'kept', MULTI: 'one\ntwo', QUOTED: `it's "here"`, UNSET: undefined,
    // Names a reader script would reach for: the spare's own variables must not overwrite them.
    d: 'dee', s: 'ess',
  }

  it('is the command: same pid, parent, process group, session, stdin, exit code and output as a spawn', async () => {
    const probe = 'echo "$$ $PPID"; cut -d" " -f5,6 /proc/$$/stat; readlink /proc/$$/fd/0; pwd -P; echo out; echo err >&2; exit 7'
    const { direct, viaSpare, made } = await both(probe, env)
    expect(made).toHaveLength(1)
    const [pid, ppid] = viaSpare.stdout.text().split('\n')[0]!.split(' ').map(Number)
    expect(pid).toBe(made[0])
    expect(ppid).toBe(process.pid)
    expect(viaSpare.pgid).toBe(pid)
    for (const run of [direct, viaSpare]) {
      // stderr shares stdout's pipe (see runShell).
      const [first, group, stdin, cwd, out, err] = run.stdout.text().split('\n')
      // Its own process group and session, led by itself (spawn's `detached`).
      expect(group).toBe(`${first!.split(' ')[0]} ${first!.split(' ')[0]}`)
      expect([stdin, cwd, out, err]).toEqual(['/dev/null', tmp.dir, 'out', 'err'])
      expect(run).toMatchObject({ exitCode: 7, signal: null, cwd: tmp.dir })
    }
  })

  it('hands the command exactly the environment a spawn would, BASH_ENV sourced once', async () => {
    const withBashEnv = { ...env, BASH_ENV: join(tmp.dir, 'bash-env.sh') }
    // `_` is the one difference: bash sets it to the path it exec'd.
    const { direct, viaSpare } = await both('env -0 | tr "\\0" "\\n" | grep -v "^_=" | LC_ALL=C sort; echo "$SHLVL $PWD"', withBashEnv)
    expect(viaSpare.stdout.text()).toBe(direct.stdout.text())
    expect(direct.stdout.text()).toContain('ODD-NAME=kept\n')
    expect(direct.stdout.text()).toContain(`\n4 ${tmp.dir}\n`)
    const sourced = (await readFile(join(tmp.dir, 'sourced'), 'utf8')).trim().split('\n')
    expect(sourced).toHaveLength(2) // one per command: the spare itself never read it
  })

  it('reports a death by signal as a signal', async () => {
    const { direct, viaSpare } = await both('kill -TERM $$', env)
    for (const run of [direct, viaSpare]) expect(run).toMatchObject({ exitCode: null, signal: 'SIGTERM' })
  })

  it('is not used for a script over 1 KB or another environment, nor made for exported functions; ends when disposed', async () => {
    const spare = new SpareShell()
    spare.take('true', tmp.dir, env)
    const first = children()
    spare.prepare(env)
    const [waiting] = [...children()].filter((pid) => !first.has(pid))
    // A script past 1 KB is read a byte a system call: slower than a spawn, so it gets one; the spare waits on.
    expect(spare.take(`: ${'x'.repeat(1100)}`, tmp.dir, env)).toBeUndefined()
    expect(spare.needed()).toBe(false)
    expect(spare.take('echo hi', tmp.dir, { ...env, OTHER: '1' })).toBeUndefined()
    for (let i = 0; i < 100 && groupAlive(waiting!); i++) await new Promise((r) => setTimeout(r, 20))
    expect(groupAlive(waiting!)).toBe(false)

    const before = children()
    spare.prepare({ ...env, 'BASH_FUNC_f%%': '() {  echo f\n}' })
    expect(spare.needed()).toBe(true)
    expect([...children()].filter((pid) => !before.has(pid))).toEqual([])

    spare.prepare(env)
    const [made] = [...children()].filter((pid) => !before.has(pid))
    spare.dispose()
    for (let i = 0; i < 100 && groupAlive(made!); i++) await new Promise((r) => setTimeout(r, 20))
    expect(groupAlive(made!)).toBe(false)
    expect(spare.needed()).toBe(false)

    // An environment spawn() refuses: no throw from the timer that prepares it, and no more tries.
    const odd = new SpareShell()
    odd.take('true', tmp.dir, env)
    expect(() => odd.prepare({ ...env, BAD: 'a\0b' })).not.toThrow()
    expect(odd.needed()).toBe(false)
  })

  /** Three `echo $$` Bash calls in a session; per call, whether its bash was running when the call began. */
  async function sessionPids(pace: { chunkDelayMs?: number }) {
    const { mod: watch, atCall } = watchCallChildren()
    const step = { reply: [{ tool_use: { name: 'Bash', input: { command: 'echo $$' } } }], ...pace }
    const run = await runScript([step, step, step, { reply: 'Done.' }], 'go', { cwd: tmp.dir, mods: [bash, watch] })
    expect(run.result).toMatchObject({ subtype: 'success' })
    const pids = run.requests.slice(1).map((r) => Number(r.body.messages.at(-1).content[0].content))
    expect(atCall).toHaveLength(3)
    return pids.map((pid, i) => atCall[i]!.has(pid))
  }

  it('runs the next Bash call of a session in the bash started while the model streamed its answer', async () => {
    // The session's first command is spawned; each later one was waiting.
    expect(await sessionPids({ chunkDelayMs: 10 })).toEqual([false, true, true])
  })

  it('starts none when the answer comes at once: the fork would hold up the round', async () => {
    expect(await sessionPids({})).toEqual([false, false, false])
  })
})
