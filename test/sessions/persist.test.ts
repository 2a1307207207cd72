import { existsSync } from 'node:fs'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import settingsEnv from '../../mods/settings-env/index.js'
import { runCli } from '../helpers/cli.js'
import { withOptions } from '../helpers/with-options.js'
import { runScript } from '../loop/helpers.js'
import transcripts from '../../mods/transcripts/index.js'
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

describe('CLAUDE_CODE_SKIP_PROMPT_HISTORY', () => {
  it('in the environment, nothing of the session is written: no transcript, no trace beside it', async () => {
    const cwd = await tempCwd()
    const r = await run([{ reply: 'not kept' }], 'forget me', cwd, { env: { CLAUDE_CODE_SKIP_PROMPT_HISTORY: '1' } })
    expect(r.result.subtype).toBe('success')
    expect(existsSync(dirname(fileOf(cwd, r.sessionId)))).toBe(false)
  })

  it('in the user settings env, the same', async () => {
    const cwd = await tempCwd()
    const userHome = await tempCwd('modloop-skip-history-home-')
    await mkdir(join(userHome, '.claude'))
    await writeFile(join(userHome, '.claude', 'settings.json'), JSON.stringify({ env: { CLAUDE_CODE_SKIP_PROMPT_HISTORY: 'true' } }))
    const settings = withOptions(settingsEnv, { home: userHome, managedDir: false, trustStore: join(userHome, 'trusted.json') })
    // As in the default distribution, settings-env sets it before the transcripts mod starts.
    const r = await runScript([{ reply: 'not kept' }], 'forget me', { cwd, mods: [settings, transcripts] })
    expect(r.result.subtype).toBe('success')
    // The store took the session before settings env applied (an empty project directory may be left): nothing is in it.
    const dir = dirname(fileOf(cwd, r.result.session_id))
    expect(existsSync(dir) ? await readdir(dir) : []).toEqual([])
  })
})
