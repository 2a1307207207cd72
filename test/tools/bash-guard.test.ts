import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { groupRunning } from '../../mods/bash/kill-group.js'
import { childrenOf } from './harness.js'

const guardModule = fileURLToPath(new URL('../../dist/mods/bash/group-guard.js', import.meta.url))
const leftover: number[] = []
afterAll(() => {
  for (const pgid of leftover) {
    try {
      process.kill(-pgid, 'SIGKILL')
    } catch {
      // gone
    }
  }
})

/** Whether `pid` is a live process (a zombie waiting for init to reap it is not). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return !['Z', 'X'].includes(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3))
  } catch {
    return false
  }
}

async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const v = await probe()
    if (v !== undefined) return v
    await sleep(25)
  }
  throw new Error(`never saw ${what}`)
}

describe('the group guard', () => {
  it('ends the groups still listed when the process that listed them dies by kill -9, and only those', async () => {
    // A process that starts three groups (sleep, each its own), lists all three (one twice: a group
    // is listed once) and takes that one back off, then waits to be killed.
    const script = `
      import { spawn } from 'node:child_process'
      import { guardGroup, releaseGroup } from ${JSON.stringify(guardModule)}
      const start = () => spawn('sh', ['-c', 'sleep 600 & sleep 600'], { detached: true, stdio: 'ignore' }).pid
      const [kept, released, other] = [start(), start(), start()]
      guardGroup(kept); guardGroup(released); guardGroup(released); releaseGroup(released); guardGroup(other)
      console.log(JSON.stringify({ kept, released, other }))
      setInterval(() => {}, 1000)`
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    const groups = await until(() => (out.includes('\n') ? JSON.parse(out) as { kept: number; released: number; other: number } : undefined), 'the groups')
    leftover.push(groups.kept, groups.released, groups.other)
    // The guard has its list once it runs: the lines were queued for it and written as it started.
    await until(() => (childrenOf(child.pid!, 'sh\0-c\0ids=').size === 1 ? true : undefined), 'the guard')
    child.kill('SIGKILL')
    await until(async () => (!(await groupRunning(groups.kept)) && !(await groupRunning(groups.other)) ? true : undefined), 'the listed groups end')
    expect(await groupRunning(groups.released)).toBe(true)
  }, 30_000)

  it('leaves nothing behind when no group is listed at its end', async () => {
    const script = `
      import { guardGroup, releaseGroup } from ${JSON.stringify(guardModule)}
      guardGroup(999999); releaseGroup(999999)
      setTimeout(() => console.log('listed'), 0)
      setInterval(() => {}, 1000)`
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] })
    const [guard] = await until(() => { const g = childrenOf(child.pid!, 'sh\0-c\0ids='); return g.size === 1 ? [...g] : undefined }, 'the guard')
    child.kill('SIGKILL')
    // Its parent gone, the guard is init's: it exits as soon as its stdin ends, having nothing to end.
    await until(() => (running(guard!) ? undefined : true), 'the guard exit')
  }, 30_000)
})
