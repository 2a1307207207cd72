import { execFileSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { boxPerTest, cmd, writeSettings, type Box } from './helpers.js'

let box: Box
boxPerTest((b) => (box = b))

const cli = (args: string[], script: unknown) => runCli(args, { script, cwd: box.project, env: { HOME: box.home, MODLOOP_HOME: join(box.root, 'modloop-home') } })

const alive = (pgid: number) => execFileSync('ps', ['-A', '-o', 'pgid=,stat='], { encoding: 'utf8' })
  .split('\n').map((l) => l.trim().split(/\s+/)).some(([g, stat]) => Number(g) === pgid && !stat!.startsWith('Z'))

describe('SessionEnd budget', () => {
  it('a settings timeout above 1.5 s gives the hooks that long', async () => {
    const done = join(box.out, 'done')
    await writeSettings(box, { SessionEnd: [{ hooks: [cmd(`sleep 3; echo done > ${done}`, { timeout: 10 })] }] })
    const r = await cli(['-p', 'hi'], [{ reply: 'hello' }])
    expect(r.code, r.err).toBe(0)
    expect(await readFile(done, 'utf8')).toBe('done\n')
  }, 20_000)

  it('a hook past its timeout is killed with its process group, and the warning names it', async () => {
    const pidFile = join(box.out, 'pid')
    const line = `echo $$ > ${pidFile}; sleep 30 & sleep 30`
    await writeSettings(box, { SessionEnd: [{ hooks: [cmd(line, { timeout: 2 })] }] })
    // The hook would sleep 30 s, past the test's own timeout: the run ending at all is its 2 s timeout at work.
    const r = await cli(['-p', 'hi'], [{ reply: 'hello' }])
    expect(r.code, r.err).toBe(0)
    const pgid = Number(await readFile(pidFile, 'utf8'))
    expect(alive(pgid)).toBe(false)
    expect(r.err).toContain(line)
    expect(r.err).toContain(join(box.project, '.claude', 'settings.json'))
    expect(r.err).toContain('timed out after 2 s')
  }, 20_000)
})
