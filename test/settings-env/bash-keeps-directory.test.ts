import { mkdir, realpath, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import bash from '../../mods/bash/index.js'
import settingsEnv from '../../mods/settings-env/index.js'
import { lastUserTexts, makeBox, type Box, withOptions } from '../shell-hooks/helpers.js'
import { runScript } from '../loop/helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

const cdThenPwd = [
  { reply: [{ tool_use: { id: 'toolu_1', name: 'Bash', input: { command: 'cd sub && pwd' } } }] },
  { reply: [{ tool_use: { id: 'toolu_2', name: 'Bash', input: { command: 'pwd' } } }] },
  { reply: 'ok' },
]
const bashTool = (body: any) => (body.tools as { name: string; description: string }[]).find((t) => t.name === 'Bash')!

describe('CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR', () => {
  it('set in the user settings env, each command starts in the project again and the model is told a cd does not carry over', async () => {
    const project = await realpath(box.project)
    await mkdir(join(project, 'sub'))
    await writeFile(join(box.home, '.claude', 'settings.json'), JSON.stringify({ env: { CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR: 'true' } }))
    const r = await runScript(cdThenPwd, 'go', {
      cwd: project, mods: [withOptions(settingsEnv, { home: box.home, managedDir: false, trustStore: box.store }), bash],
    })
    expect(lastUserTexts(r.requests[1]!.body)[0]).toBe(join(project, 'sub'))
    expect(lastUserTexts(r.requests[2]!.body)[0]).toBe(project)
    expect(bashTool(r.requests[0]!.body).description).toContain('a cd does not carry over to the next call')
  })

  it('unset or 0, a cd that succeeds still carries over', async () => {
    const project = await realpath(box.project)
    await mkdir(join(project, 'sub'))
    const r = await runScript(cdThenPwd, 'go', { cwd: project, mods: [bash], env: { CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR: '0' } })
    expect(lastUserTexts(r.requests[2]!.body)[0]).toBe(join(project, 'sub'))
    expect(bashTool(r.requests[0]!.body).description).toContain('The working directory persists between calls')
  })
})
