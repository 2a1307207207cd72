import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { hostname } from 'node:os'
import { describe, expect, it, vi } from 'vitest'
import { isModloopError } from '../../core/errors.js'
import { acquireSessionLock, lockHolder } from '../../mods/transcripts/store/lock.js'
import { processStart } from '../../mods/_shared/process-start.js'
import { encodeCwd, lockPathOf, modloopHome, projectDir, subagentTranscriptPath, transcriptPath } from '../../mods/transcripts/store/paths.js'
import { TranscriptWriter } from '../../mods/transcripts/writer.js'
import { home, run, tempCwd } from './helpers.js'

describe('where sessions live', () => {
  it('encodes the cwd: non-alphanumerics become -, long names are cut and hashed apart', () => {
    expect(encodeCwd('/Users/me/my.proj_1')).toBe('-Users-me-my-proj-1')
    const a = `/${'a'.repeat(250)}/x`
    const b = `/${'a'.repeat(250)}/y`
    expect(encodeCwd(a).length).toBeLessThanOrEqual(214)
    expect(encodeCwd(a)).not.toBe(encodeCwd(b))
    expect(encodeCwd(a).startsWith('-'.concat('a'.repeat(199)))).toBe(true)
  })

  it('MODLOOP_HOME, from the option env first, then the process', () => {
    expect(modloopHome()).toBe(home())
    expect(modloopHome({ MODLOOP_HOME: '/elsewhere' })).toBe('/elsewhere')
    expect(transcriptPath('/p/q', 'id', { MODLOOP_HOME: '/h' })).toBe('/h/projects/-p-q/id.jsonl')
    expect(subagentTranscriptPath('/h/projects/-p-q/id.jsonl', 'ag')).toBe('/h/projects/-p-q/id/subagents/agent-ag.jsonl')
    expect(projectDir('/p/q')).toBe(join(home(), 'projects', '-p-q'))
  })

  it('a new session: source startup, the transcript path, a lock while it runs and none after', async () => {
    const cwd = await tempCwd()
    let lockSeen = false
    const r = await run([{ reply: 'x' }], 'p', cwd, {}, [{ name: 'lock-peek', register: (on) => on('prompt.submit', ($, e, next) => { lockSeen = existsSync(lockPathOf(transcriptPath(cwd, $.session.id() as string))); return next(e) }) }])
    expect(r.starts).toEqual([{ source: 'startup', sessionId: r.sessionId, transcriptPath: transcriptPath(cwd, r.sessionId) }])
    expect(lockSeen).toBe(true)
    expect(existsSync(lockPathOf(transcriptPath(cwd, r.sessionId)))).toBe(false)
  })
})

describe('the session lock', () => {
  it('is exclusive, names the holder, is taken over from a dead pid, and released', async () => {
    const path = join(await tempCwd(), 's.jsonl')
    const release = acquireSessionLock(path, 'S1')
    expect(readFileSync(lockPathOf(path), 'utf8').split('\n')[0]).toBe(String(process.pid))
    let error: unknown
    try { acquireSessionLock(path, 'S1') } catch (err) { error = err }
    expect(isModloopError(error, 'MODLOOP_ERR_SESSION_LOCKED')).toBe(true)
    expect((error as Error).message).toMatch(/session S1 is in use by this process/)
    release()
    expect(existsSync(lockPathOf(path))).toBe(false)
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString()
    writeFileSync(lockPathOf(path), dead)
    const again = acquireSessionLock(path, 'S1')
    expect(readFileSync(lockPathOf(path), 'utf8').split('\n')[0]).toBe(String(process.pid))
    again()
  })

  it.runIf(process.platform === 'linux')('is taken over from a killed writer its parent has not reaped yet (a zombie)', async () => {
    const path = join(await tempCwd(), 's.jsonl')
    // The subshell exits once its parent has become `sleep`, which never waits for it (had it exited
    // before the exec, the shell could have reaped it, and no zombie would ever show).
    const parent = spawn('sh', ['-c', '(sleep 0.2; exit 0) & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] })
    try {
      const pid = Number(String((await once(parent.stdout!, 'data'))[0]).trim())
      await vi.waitFor(() => expect(readFileSync(`/proc/${pid}/stat`, 'utf8')).toMatch(/\) Z /), { timeout: 10_000 })
      writeFileSync(lockPathOf(path), `${pid}\n${processStart(pid)}\n${hostname()}\n`)
      expect(lockHolder(path)).toBeUndefined()
      const release = acquireSessionLock(path, 'S1')
      expect(readFileSync(lockPathOf(path), 'utf8').split('\n')[0]).toBe(String(process.pid))
      release()
    } finally {
      parent.kill()
    }
  })
})

describe('the writer', () => {
  it('cuts a torn tail before appending, even when the whole file is one torn line', async () => {
    const dir = await tempCwd()
    const line = (uuid: string) => ({ type: 'system' as const, subtype: 'note', uuid, parentUuid: null, sessionId: 's', timestamp: new Date().toISOString(), cwd: dir, isSidechain: false, userType: 'external' as const, entrypoint: 'sdk-ts', version: '0' })
    const torn = join(dir, 'torn.jsonl')
    writeFileSync(torn, '{"type":"us')
    new TranscriptWriter(torn).append(line('a'))
    expect(readFileSync(torn, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).uuid)).toEqual(['a'])
    const partial = join(dir, 'partial.jsonl')
    writeFileSync(partial, `${JSON.stringify(line('a'))}\n{"type":"us`)
    const w = new TranscriptWriter(partial, { after: 'a' })
    w.append(line('b'))
    w.close()
    expect(readFileSync(partial, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))).toMatchObject([{ uuid: 'a' }, { uuid: 'b', parentUuid: 'a' }])
  })
})
