import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isModloopError } from '../../core/errors.js'
import { acquireSessionLock, lockHolder } from '../../mods/transcripts/store/lock.js'
import { lockPathOf } from '../../mods/transcripts/store/paths.js'
import { fileOf, run, tempCwd } from './helpers.js'

// In a container node runs as PID 1 every time: a lock left by a killed run names this very pid.
describe('a lock naming this process pid that this process did not take', () => {
  it('is stale: taken over, and the session resumes', async () => {
    const cwd = await tempCwd()
    const first = await run([{ reply: 'one' }], 'first', cwd)
    const lock = lockPathOf(fileOf(cwd, first.sessionId))
    writeFileSync(lock, String(process.pid))
    expect(lockHolder(fileOf(cwd, first.sessionId))).toBeUndefined()
    const again = await run([{ reply: 'two' }], 'second', cwd, { resume: first.sessionId })
    expect(again.error).toBeUndefined()
    expect(again.result.session_id).toBe(first.sessionId)
  })

  it('one this process took still refuses a second writer', async () => {
    const path = join(await tempCwd(), 's.jsonl')
    writeFileSync(lockPathOf(path), String(process.pid))
    const release = acquireSessionLock(path, 'S1')
    expect(readFileSync(lockPathOf(path), 'utf8').split('\n')[0]).toBe(String(process.pid))
    expect(lockHolder(path)).toBe(process.pid)
    let error: unknown
    try { acquireSessionLock(path, 'S1') } catch (err) { error = err }
    expect(isModloopError(error, 'MODLOOP_ERR_SESSION_LOCKED')).toBe(true)
    release()
    expect(lockHolder(path)).toBeUndefined()
  })
})
