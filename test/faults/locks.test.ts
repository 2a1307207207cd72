import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isModloopError } from '../../core/errors.js'
import { acquireSessionLock, lockHolder } from '../../mods/transcripts/store/lock.js'
import { lockPathOf } from '../../mods/transcripts/store/paths.js'
import { processStart } from '../../mods/_shared/process-start.js'

let dir: string
let other: ReturnType<typeof spawn>
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'modloop-locks-'))
  // A live process that is not the lock's writer: the stand-in for a pid the system reused.
  other = spawn('sleep', ['60'], { stdio: 'ignore' })
})
afterAll(async () => {
  other.kill('SIGKILL')
  await rm(dir, { recursive: true, force: true })
})

describe('locks know their owner', () => {
  it('records pid, start time and host', async () => {
    const path = join(dir, 'a.jsonl')
    const release = acquireSessionLock(path, 'A')
    const [pid, start, host] = (await readFile(lockPathOf(path), 'utf8')).split('\n')
    expect(Number(pid)).toBe(process.pid)
    expect(start).toBe(processStart(process.pid))
    expect(host).toBe(hostname())
    release()
  })

  it('a lock whose pid lives but started at another time is stale, and is taken over', async () => {
    const path = join(dir, 'b.jsonl')
    await writeFile(lockPathOf(path), `${other.pid}\n1\n${hostname()}\n`)
    expect(lockHolder(path)).toBeUndefined()
    const release = acquireSessionLock(path, 'B')
    expect((await readFile(lockPathOf(path), 'utf8')).split('\n')[0]).toBe(String(process.pid))
    release()
  })

  it('a lock whose pid lives with the recorded start time holds', async () => {
    const path = join(dir, 'c.jsonl')
    await writeFile(lockPathOf(path), `${other.pid}\n${processStart(other.pid!)}\n${hostname()}\n`)
    expect(lockHolder(path)).toBe(other.pid)
    let error: unknown
    try { acquireSessionLock(path, 'C') } catch (err) { error = err }
    expect(isModloopError(error, 'MODLOOP_ERR_SESSION_LOCKED')).toBe(true)
  })
})
