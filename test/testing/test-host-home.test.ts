import { existsSync, readdirSync } from 'node:fs'
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestHost } from '../../testing.js'

// The developer's home as a test would find it: a CLAUDE.md and a user hook that marks a file.
let fakeHome: string
const saved = { HOME: process.env.HOME, CLAUDE_CONFIG_DIR: process.env.CLAUDE_CONFIG_DIR, MODLOOP_HOME: process.env.MODLOOP_HOME }
beforeAll(async () => {
  fakeHome = await realpath(await mkdtemp(join(tmpdir(), 'modloop-fake-home-')))
  await mkdir(join(fakeHome, '.claude'), { recursive: true })
  await writeFile(join(fakeHome, '.claude', 'CLAUDE.md'), 'SECRET USER MEMORY\n')
  const hook = { type: 'command', command: `touch "${join(fakeHome, 'hook-ran')}"` }
  await writeFile(join(fakeHome, '.claude', 'settings.json'), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [hook] }] } }))
  process.env.HOME = fakeHome
  delete process.env.CLAUDE_CONFIG_DIR
  delete process.env.MODLOOP_HOME
})
afterAll(async () => {
  for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v
  await rm(fakeHome, { recursive: true, force: true })
})

describe('createTestHost keeps away from the home it runs in', () => {
  it('reads no user CLAUDE.md, runs no user hook, writes no session there, and removes its temp dir', async () => {
    const t = await createTestHost({ mods: ['memory', 'shell-hooks', 'transcripts'], script: [{ reply: 'ok' }] })
    expect(t.host.errors).toEqual([])
    const { result } = await t.run('hello')
    expect(result.subtype).toBe('success')
    expect(JSON.stringify(t.model.requests[0]?.messages)).not.toContain('SECRET USER MEMORY')
    expect(existsSync(join(fakeHome, 'hook-ran'))).toBe(false)
    expect(existsSync(join(fakeHome, '.modloop'))).toBe(false)
    expect(t.env.HOME).not.toBe(fakeHome)
    const sessions = join(t.env.MODLOOP_HOME!, 'projects')
    expect(readdirSync(sessions)).toHaveLength(1)
    await t.close()
    expect(existsSync(t.cwd)).toBe(false)
    expect(existsSync(t.env.HOME!)).toBe(false)
  })

  it('a home given in env is the one mods read', async () => {
    const t = await createTestHost({ mods: ['memory'], script: [{ reply: 'ok' }], env: { HOME: fakeHome, CLAUDE_CONFIG_DIR: join(fakeHome, '.claude') } })
    await t.run('hello')
    expect(JSON.stringify(t.model.requests[0]?.messages)).toContain('SECRET USER MEMORY')
    await t.close()
    expect(existsSync(fakeHome)).toBe(true)
  })

  it('a cwd the caller passed stays after close; what the host made goes', async () => {
    const cwd = await realpath(await mkdtemp(join(tmpdir(), 'modloop-own-cwd-')))
    try {
      const t = await createTestHost({ cwd, mods: ['memory'], script: [{ reply: 'ok' }] })
      await t.run('hello')
      await t.close()
      expect(existsSync(cwd)).toBe(true)
      expect(existsSync(t.env.HOME!)).toBe(false)
    } finally {
      await rm(cwd, { recursive: true, force: true })
    }
  })
})
