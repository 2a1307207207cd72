import { describe, expect, it } from 'vitest'
import { createHooksRunner } from '../../hooks-runner/hooks-runner.js'
import { groupAlive } from '../../hooks-runner/kill-group.js'
import { SpareSh } from '../../hooks-runner/spare-sh.js'
import { spawnHook, type ProcessRun } from '../../hooks-runner/spawn-hook.js'
import { cmd, configOf, group, preToolUse, tempDir } from './helpers.js'
import { childrenOf } from '../tools/harness.js'

/** The pids whose parent is this process (children started by a spawn, waiting or running). */
const children = () => childrenOf(process.pid)

// An environment a spawn passes on as it is, with what the shell in between would change.
const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH, HOME: '/home/nobody-here', PWD: '/nowhere/stale', OLDPWD: '/before',
  'ODD-NAME': 'kept', MULTI: 'one\ntwo', QUOTED: `it's "here"`, UNSET: undefined, d: 'dee', s: 'ess', i: 'eye', n: 'en',
}
const INPUT = '{"hook_event_name":"PreToolUse","tool_input":{"command":"echo \'hi\'"}}\n'

const spawn = (dir: string, command: string, spare?: SpareSh, stdin = INPUT): Promise<ProcessRun> =>
  spawnHook({ file: '/bin/sh', args: ['-c', command], cwd: dir, env, stdin, timeoutMs: 10_000, killGraceMs: 200, pipeGraceMs: 100, spare })

/** Runs `command` once with a plain spawn and once through a spare made beforehand; the spare's pid too. */
async function both(dir: string, command: string) {
  const direct = await spawn(dir, command)
  const spare = new SpareSh()
  // None yet: the hook is spawned, and a spare is wanted from now on, in its environment.
  expect(spare.take('/bin/sh', ['-c', 'true'], dir, env)).toBeUndefined()
  const before = children()
  spare.prepare()
  const made = [...children()].filter((pid) => !before.has(pid))
  const viaSpare = await spawn(dir, command, spare)
  spare.dispose()
  return { direct, viaSpare, made }
}

describe.skipIf(process.platform !== 'linux')('the spare shell for command hooks (started while the model answers)', () => {
  it('is the hook: same pid, parent, process group, session, $0, stdin, exit code and output as a spawn', async () => {
    const dir = await tempDir()
    const probe = 'echo "$$ $PPID"; cut -d" " -f5,6 /proc/$$/stat; echo "$0"; pwd -P; cat; echo err >&2; exit 7'
    const { direct, viaSpare, made } = await both(dir, probe)
    expect(made).toHaveLength(1)
    const [pid, ppid] = viaSpare.stdout.split('\n')[0]!.split(' ').map(Number)
    expect(pid).toBe(made[0])
    expect(viaSpare.pid).toBe(pid)
    expect(ppid).toBe(process.pid)
    for (const run of [direct, viaSpare]) {
      const [first, groupAndSession, zero, cwd, input] = run.stdout.split('\n')
      // Its own process group and session, led by itself (spawn's `detached`).
      expect(groupAndSession).toBe(`${first!.split(' ')[0]} ${first!.split(' ')[0]}`)
      expect([zero, cwd, `${input}\n`]).toEqual(['/bin/sh', dir, INPUT])
      expect(run).toMatchObject({ status: 'exited', exitCode: 7, signal: null, stderr: 'err\n' })
    }
  })

  it('hands the hook exactly the environment a spawn would, and a command of several lines as written', async () => {
    const dir = await tempDir()
    const command = `env -0 | tr "\\0" "\\n" | grep -v "^_=" | LC_ALL=C sort
printf '%s|' "it's" 'a  "b"' \\
  "tab	here"
echo "$PWD"

`
    const { direct, viaSpare } = await both(dir, command)
    expect(viaSpare.stdout).toBe(direct.stdout)
    // As /bin/sh passes them on (it sets PWD to where it runs), either way; the spare's own
    // variables are none of them.
    const lines = direct.stdout.split('\n')
    for (const line of ['OLDPWD=/before', `PWD=${dir}`, `QUOTED=it's "here"`, 'd=dee', 'i=eye', 'n=en', 's=ess']) expect(lines).toContain(line)
    expect(viaSpare.stdout).not.toContain('__modloop')
    expect(direct.stdout).toContain(`it's|a  "b"|tab\there|${dir}\n`)
  })

  it('reports a death by signal as a signal', async () => {
    const dir = await tempDir()
    const { direct, viaSpare } = await both(dir, 'kill -TERM $$')
    for (const run of [direct, viaSpare]) expect(run).toMatchObject({ exitCode: null, signal: 'SIGTERM' })
  })

  it('is not used for another environment, another program or a long command; ends when disposed', async () => {
    const dir = await tempDir()
    const spare = new SpareSh()
    spare.take('/bin/sh', ['-c', 'true'], dir, env)
    expect(spare.needed()).toBe(true)
    spare.prepare()
    expect(spare.needed()).toBe(false)
    expect(spare.take('/usr/bin/env', ['true'], dir, env)).toBeUndefined() // exec form: never
    expect(spare.needed()).toBe(false) // and the spare still waits
    // Past 1 KB the spare's byte-a-call read is slower than a spawn.
    expect(spare.take('/bin/sh', ['-c', `: ${'x'.repeat(1100)}`], dir, env)).toBeUndefined()
    expect(spare.take('/bin/sh', ['-c', 'true'], dir, { ...env, OTHER: '1' })).toBeUndefined()
    // That one was ended: another environment is another spare's.
    expect(spare.needed()).toBe(true)
    const before = children()
    spare.prepare()
    const [made] = [...children()].filter((pid) => !before.has(pid))
    expect(made).toBeGreaterThan(0)
    spare.dispose()
    expect(spare.needed()).toBe(false)
    for (let i = 0; i < 100 && groupAlive(made!); i++) await new Promise((r) => setTimeout(r, 20))
    expect(groupAlive(made!)).toBe(false)
  })

  it('a session runner hands its next hook to the spare prepared meanwhile; a timeout still ends the hook as a group', async () => {
    const dir = await tempDir()
    // The first run returns at once and leaves a mark; the second, in the spare, hangs until its timeout.
    const hook = `cat > /dev/null; if [ -e ran ]; then sleep 30; fi; touch ran`
    const runner = createHooksRunner({ config: configOf(group('PreToolUse', [cmd(hook, { timeout: 1 })])), projectDir: dir, killGraceMs: 200 })
    const input = { session_id: 's1', cwd: dir, ...preToolUse() }
    try {
      const first = await runner.run('PreToolUse', input)
      expect(first.records[0]).toMatchObject({ outcome: 'success' })
      expect(runner.spare.needed()).toBe(true)
      const before = children()
      runner.spare.prepare()
      const made = [...children()].filter((pid) => !before.has(pid))
      const second = await runner.run('PreToolUse', input)
      const rec = second.records[0]!
      expect(rec).toMatchObject({ outcome: 'timeout', pid: made[0] })
      expect(groupAlive(rec.pid!)).toBe(false)
    } finally {
      await runner.close()
    }
  })
})
