import { execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const built = existsSync(join(root, 'dist/bin/main.cjs'))

let dir: string
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-signals-')))
  await mkdir(join(dir, '.claude'), { recursive: true })
  await mkdir(join(dir, 'home'), { recursive: true })
})
afterEach(() => rm(dir, { recursive: true, force: true }))

// Zombies count as gone: once their parent exited they wait for PID 1, which may reap them late.
const alive = (pgid: number) => execFileSync('ps', ['-A', '-o', 'pgid=,stat='], { encoding: 'utf8' })
  .split('\n').map((l) => l.trim().split(/\s+/)).some(([g, stat]) => Number(g) === pgid && !stat!.startsWith('Z'))

async function waitFor<T>(probe: () => Promise<T | undefined>, ms: number): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = await probe()
    if (v !== undefined) return v
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe.runIf(built)('-p stopped by a signal', () => {
  for (const [signal, code] of [['SIGTERM', 143], ['SIGHUP', 129]] as const) {
    it(`${signal}: the Bash tree is killed, SessionEnd runs, exit ${code}`, async () => {
      const ended = join(dir, 'ended.json')
      await writeFile(join(dir, '.claude', 'settings.json'), JSON.stringify({ hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: `cat > ${ended}` }] }] } }))
      const shellPid = join(dir, 'shell.pid')
      await writeFile(join(dir, 'script.json'), JSON.stringify({ steps: [
        { reply: [{ tool_use: { name: 'Bash', input: { command: `echo $$ > ${shellPid}; sleep 20 & sleep 20` } } }] },
        { reply: 'done' },
      ] }))
      const child = spawn(process.execPath, [join(root, 'bin/modloop.cjs'), '-p', 'go', '--script', 'script.json', '--dangerously-skip-permissions'], {
        cwd: dir, env: { ...process.env, HOME: join(dir, 'home'), MODLOOP_HOME: join(dir, 'modloop-home') }, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
      })
      let err = ''
      child.stderr.on('data', (d) => (err += d))
      const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)))
      const pgid = await waitFor(async () => {
        const text = await readFile(shellPid, 'utf8').catch(() => '')
        return text.trim() ? Number(text) : undefined
      }, 15_000)
      expect(alive(pgid)).toBe(true)
      child.kill(signal)
      try {
        expect(await exited, err).toBe(code)
        expect(JSON.parse(await readFile(ended, 'utf8'))).toMatchObject({ hook_event_name: 'SessionEnd', reason: 'other' })
        expect(alive(pgid)).toBe(false)
        expect(alive(child.pid!)).toBe(false)
      } finally {
        if (alive(pgid)) process.kill(-pgid, 'SIGKILL')
        if (alive(child.pid!)) process.kill(-child.pid!, 'SIGKILL')
      }
    }, 30_000)
  }
})
