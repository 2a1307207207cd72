import { execFileSync } from 'node:child_process'
import { chmod, readFile, rm } from 'node:fs/promises'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gitSnapshot } from '../../mods/context/git-snapshot.js'
import { tempDir, writeTree } from './fixtures.js'

// A stand-in git on the PATH that records when each command starts and ends, and its pid.
const FAKE_GIT = `#!/bin/sh
echo "$1 start $(date +%s%N) $$" >> "$FAKE_GIT_LOG"
case "$1" in
  status) printf '## feature...origin/feature\\n M a.txt\\n' ;;
  log) sleep "$FAKE_LOG_SLEEP"; printf 'abc1234 second\\ndef5678 first\\n' ;;
  for-each-ref) printf 'refs/heads/main\\t\\n' ;;
esac
echo "$1 end $(date +%s%N)" >> "$FAKE_GIT_LOG"
`

let bin: string
let cwd: string
beforeAll(async () => {
  bin = await tempDir('fake-git')
  cwd = await tempDir('fake-git-cwd')
  await writeTree(bin, { git: FAKE_GIT })
  await chmod(join(bin, 'git'), 0o755)
})
afterAll(async () => {
  await rm(bin, { recursive: true, force: true })
  await rm(cwd, { recursive: true, force: true })
})

const env = (log: string, logSleep: string) => ({ ...process.env, PATH: `${bin}:${process.env.PATH}`, FAKE_GIT_LOG: log, FAKE_LOG_SLEEP: logSleep })

/** The fake's record: per command, its start and end (ns) and pid. */
async function record(log: string): Promise<Record<string, { start: bigint; end?: bigint; pid: number }>> {
  const out: Record<string, { start: bigint; end?: bigint; pid: number }> = {}
  for (const line of (await readFile(log, 'utf8')).trim().split('\n')) {
    const [cmd, what, ns, pid] = line.split(' ')
    if (what === 'start') out[cmd!] = { start: BigInt(ns!), pid: Number(pid) }
    else out[cmd!]!.end = BigInt(ns!)
  }
  return out
}

describe.skipIf(process.platform === 'win32')('the git snapshot', () => {
  it('reads the branch, main branch, status and log, each from its place in the one shell output', async () => {
    const text = await gitSnapshot(cwd, { timeoutMs: 10_000, maxStatusChars: 1000, env: env(join(bin, 'read.log'), '0') })
    expect(text).toContain('Current branch: feature')
    expect(text).toContain('Main branch (the usual base for pull requests): main')
    expect(text).toContain('Status:\n M a.txt')
    expect(text).toContain('Recent commits:\nabc1234 second\ndef5678 first')
  })

  it("names the git user, as git config gives it, after the main branch", async () => {
    const repo = await tempDir('git-user')
    try {
      const git = (...args: string[]) => execFileSync('git', args, { cwd: repo })
      git('init', '-q', '-b', 'main')
      git('config', 'user.name', 'Ada Lovelace')
      git('-c', 'user.email=ada@example.com', 'commit', '-q', '--allow-empty', '-m', 'first')
      const text = await gitSnapshot(repo, { timeoutMs: 10_000, maxStatusChars: 1000 })
      expect(text).toContain('Main branch (the usual base for pull requests): main\n\nGit user: Ada Lovelace\n\nStatus:')
    } finally {
      await rm(repo, { recursive: true, force: true })
    }
  })

  it('gives up at the timeout, and leaves none of its processes running (a slow log, not only the shell)', async () => {
    const log = join(bin, 'slow.log')
    expect(await gitSnapshot(cwd, { timeoutMs: 300, maxStatusChars: 1000, env: env(log, '30') })).toBeUndefined()
    const { pid } = (await record(log)).log!
    // Gone, or a zombie waiting for its reaper: not running.
    const state = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0] : 'gone'
    if (process.platform === 'linux') expect(['gone', 'Z', 'X']).toContain(state)
    else expect(() => process.kill(pid, 0)).toThrow()
  })
})
