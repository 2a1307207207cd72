import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { fileOf, run, tempCwd } from './helpers.js'

describe('persistSession: false and --no-session-persistence', () => {
  it('query(): no transcript is written, while the same session with persistence writes one', async () => {
    const cwd = await tempCwd()
    const ephemeral = await run([{ reply: 'not kept' }], 'forget me', cwd, { persistSession: false })
    expect(ephemeral.result.subtype).toBe('success')
    expect(ephemeral.starts[0]!.transcriptPath).toBe(fileOf(cwd, ephemeral.sessionId))
    expect(existsSync(dirname(fileOf(cwd, ephemeral.sessionId)))).toBe(false)
    const kept = await run([{ reply: 'kept' }], 'remember me', cwd)
    expect(existsSync(fileOf(cwd, kept.sessionId))).toBe(true)
    expect(existsSync(fileOf(cwd, ephemeral.sessionId))).toBe(false)
  })

  it('-p --no-session-persistence leaves nothing to list or resume', async () => {
    const cwd = await tempCwd()
    await writeFile(join(cwd, 'modloop.config.json'), JSON.stringify({ mods: ['transcripts'] }))
    const env = { MODLOOP_HOME: process.env.MODLOOP_HOME }
    const first = await runCli(['-p', 'hello', '--no-session-persistence', '--output-format', 'json'], { script: [{ reply: 'hi' }], cwd, env })
    expect(first.code).toBe(0)
    const id = JSON.parse(first.out).session_id as string
    expect(existsSync(fileOf(cwd, id))).toBe(false)
    const list = await runCli(['sessions', 'list', '--json'], { script: [], cwd, env })
    expect(JSON.parse(list.out)).toEqual([])
    const resumed = await runCli(['-p', 'again', '--resume', id], { script: [{ reply: 'never' }], cwd, env })
    expect(resumed.code).not.toBe(0)
    expect(resumed.err).toContain(id)
  })
})
