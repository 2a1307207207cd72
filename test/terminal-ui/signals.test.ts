import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { groupRunning } from '../../mods/bash/kill-group.js'
import { projectDir } from '../../mods/transcripts/store/paths.js'
import { hasTmux, project, send, tmuxSuite } from './suite.js'

const suite = tmuxSuite(import.meta.filename)
const open = suite.open

async function until<T>(what: string, get: () => T | undefined | Promise<T | undefined>, ms = 8000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await get()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`never: ${what}`)
    await delay(40)
  }
}

describe.runIf(hasTmux)('SIGTERM and SIGHUP in the interactive terminal (tmux)', () => {
  for (const [signal, code] of [['SIGTERM', 143], ['SIGHUP', 129]] as const) {
    it(`${signal} mid-command: the Bash process group is killed, the lock released, SessionEnd runs, exit ${code}`, async () => {
      const where = await project()
      const pidFile = join(where.cwd, 'bash.pid')
      const ended = join(where.cwd, 'ended')
      await mkdir(join(where.home, '.claude'), { recursive: true })
      await writeFile(join(where.home, '.claude', 'settings.json'), JSON.stringify({ hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: `touch ${ended}` }] }] } }))
      const p = await open({ steps: [{ reply: [{ tool_use: { name: 'Bash', input: { command: `echo $$ > ${pidFile}; sleep 300` } } }] }, { reply: 'never' }] }, where, { args: ['--dangerously-skip-permissions'] })
      await send(p, 'run it')
      const pgid = await until('the command started', () => (existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim()) ? Number(readFileSync(pidFile, 'utf8')) : undefined)
      const dir = projectDir(where.cwd, { MODLOOP_HOME: where.home })
      const lock = join(dir, readdirSync(dir).find((n) => n.endsWith('.lock'))!)
      const pid = Number(readFileSync(lock, 'utf8').split('\n')[0])
      process.kill(pid, signal)
      await p.waitFor(`[exited ${code}]`)
      expect(await groupRunning(pgid)).toBe(false)
      expect(existsSync(lock)).toBe(false)
      expect(existsSync(ended)).toBe(true)
    })
  }

  it('SIGTERM while the folder-trust question is up: answered no, nothing trusted, the terminal given back, exit 143', async () => {
    const where = await project({ '.claude/settings.json': JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } }) })
    const p = await open({ steps: [{ reply: 'never' }] }, where, { waitFor: 'Do you trust the files in' })
    const shell = Number(await p.tmux('display-message', '-p', '-t', p.name, '#{pane_pid}'))
    process.kill(childOf(shell), 'SIGTERM')
    const screen = await p.waitFor('[exited 143]')
    expect(screen).not.toContain('Do you trust')
    expect(existsSync(join(where.home, 'trusted.json'))).toBe(false)
  })
})

/** The one child process of `pid` (the CLI under the pane's shell), from /proc. */
function childOf(pid: number): number {
  const children = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((d) => {
    try {
      return readFileSync(`/proc/${d}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')[1] === String(pid)
    } catch {
      return false
    }
  })
  if (children.length !== 1) throw new Error(`expected one child of ${pid}, found ${children.length}`)
  return Number(children[0])
}
