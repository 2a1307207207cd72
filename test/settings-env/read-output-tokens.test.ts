import { realpath, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import read from '../../mods/read/index.js'
import settingsEnv from '../../mods/settings-env/index.js'
import { lastUserTexts, makeBox, type Box, withOptions } from '../shell-hooks/helpers.js'
import { runScript } from '../loop/helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

const lines = Array.from({ length: 100 }, (_, i) => `line number ${i + 1} with some words here`).join('\n')
const readIt = (file: string) => [{ reply: [{ tool_use: { id: 'toolu_1', name: 'Read', input: { file_path: file } } }] }, { reply: 'ok' }]

describe('CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS', () => {
  it('in the user settings env, it is how much of a file Read returns (four characters a token), the rest a PARTIAL view away', async () => {
    const project = await realpath(box.project)
    const file = join(project, 'f.txt')
    await writeFile(file, lines)
    await writeFile(join(box.home, '.claude', 'settings.json'), JSON.stringify({ env: { CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS: '100' } }))
    const r = await runScript(readIt(file), 'go', { cwd: project, mods: [withOptions(settingsEnv, { home: box.home, managedDir: false, trustStore: box.store }), read] })
    const text = lastUserTexts(r.requests[1]!.body)[0]!
    expect(text).toMatch(/^ *1\tline number 1 with some words here\n/)
    expect(text).toMatch(/PARTIAL view - .*: showing lines 1-(\d+) of 100; lines 1-100 come to about \d+ tokens, over the cap of 100\. Read on with offset=\d+/)
    expect(text).not.toContain('line number 20 ')
  })

  it('unset or malformed, the whole file comes back', async () => {
    const project = await realpath(box.project)
    const file = join(project, 'f.txt')
    await writeFile(file, lines)
    const r = await runScript(readIt(file), 'go', { cwd: project, mods: [read], env: { CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS: 'lots' } })
    expect(lastUserTexts(r.requests[1]!.body)[0]).toContain('100\tline number 100 with some words here')
  })
})
