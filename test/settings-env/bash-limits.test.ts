import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import bash from '../../mods/bash/index.js'
import { bashLimits } from '../../mods/bash/limits.js'
import settingsEnv from '../../mods/settings-env/index.js'
import { lastUserTexts, makeBox, type Box, withOptions } from '../shell-hooks/helpers.js'
import { runScript } from '../loop/helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

const env = (vars: Record<string, string>) => (name: string) => vars[name]

describe("Bash's limits from Claude Code's variables", () => {
  it('BASH_DEFAULT_TIMEOUT_MS in the user settings env stops a command and is what the model is told', async () => {
    await writeFile(join(box.home, '.claude', 'settings.json'), JSON.stringify({ env: { BASH_DEFAULT_TIMEOUT_MS: 300 } }))
    const r = await runScript([{ reply: [{ tool_use: { id: 'toolu_1', name: 'Bash', input: { command: 'echo started; sleep 10' } } }] }, { reply: 'ok' }], 'go', {
      cwd: box.project, mods: [withOptions(settingsEnv, { home: box.home, managedDir: false, trustStore: box.store }), bash],
    })
    expect(lastUserTexts(r.requests[1]!.body)[0]).toBe('started\nCommand timed out after 300 ms and was stopped.')
    const tool = (r.requests[0]!.body.tools as { name: string; description: string }[]).find((t) => t.name === 'Bash')!
    expect(tool.description).toContain('Timeout: 300 ms by default, at most 600000 ms')
  })

  it('the options a distribution set come first, then the environment, then the defaults', () => {
    expect(bashLimits({}, env({}))).toEqual({ defaultTimeoutMs: 120_000, maxTimeoutMs: 600_000, maxOutputChars: 30_000, movedLimitMs: 600_000 })
    const vars = env({ BASH_DEFAULT_TIMEOUT_MS: '5000', BASH_MAX_TIMEOUT_MS: '9000', BASH_MAX_OUTPUT_LENGTH: '4000' })
    expect(bashLimits({}, vars)).toEqual({ defaultTimeoutMs: 5000, maxTimeoutMs: 9000, maxOutputChars: 4000, movedLimitMs: 600_000 })
    expect(bashLimits({ defaultTimeoutMs: 100, maxTimeoutMs: 200, maxOutputChars: 1000 }, vars)).toEqual({ defaultTimeoutMs: 100, maxTimeoutMs: 200, maxOutputChars: 1000, movedLimitMs: 600_000 })
  })

  it('as in Claude Code, a maximum from the environment is never below the default; output length is held at 150,000; bad values are ignored', () => {
    expect(bashLimits({}, env({ BASH_MAX_TIMEOUT_MS: '1000' })).maxTimeoutMs).toBe(120_000)
    expect(bashLimits({}, env({ BASH_DEFAULT_TIMEOUT_MS: '2000', BASH_MAX_TIMEOUT_MS: '1000' })).maxTimeoutMs).toBe(2000)
    expect(bashLimits({ maxTimeoutMs: 300 }, env({})).maxTimeoutMs).toBe(300)
    expect(bashLimits({}, env({ BASH_MAX_OUTPUT_LENGTH: '999999' })).maxOutputChars).toBe(150_000)
    expect(bashLimits({}, env({ BASH_DEFAULT_TIMEOUT_MS: 'soon', BASH_MAX_TIMEOUT_MS: '-5', BASH_MAX_OUTPUT_LENGTH: '' }))).toEqual({ defaultTimeoutMs: 120_000, maxTimeoutMs: 600_000, maxOutputChars: 30_000, movedLimitMs: 600_000 })
  })
})
