import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runScript } from '../loop/helpers.js'
import { permissionsWith, sandbox, type Sandbox } from './helpers.js'

let box: Sandbox
beforeAll(async () => {
  box = await sandbox()
  await mkdir(join(box.project, '.claude'), { recursive: true })
  await writeFile(join(box.project, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(npm test)'], deny: ['Read(./.env)'] } }))
  await mkdir(join(box.home, '.claude'), { recursive: true })
  await writeFile(join(box.home, '.claude', 'settings.json'), JSON.stringify({ permissions: { ask: ['Bash(git push:*)'] } }))
})
afterAll(() => box.remove())

describe('/permissions', () => {
  it('lists the rules by behaviour with their sources, the mode and the working directories, without a model call', async () => {
    const permissions = permissionsWith({ home: box.home, trustStore: join(box.modloopHome, 'trusted.json') })
    const run = await runScript([], '/permissions', { cwd: box.project, mods: [permissions], allowedTools: ['Read'], additionalDirectories: [box.outside], permissionMode: 'acceptEdits' })
    expect(run.requests).toHaveLength(0)
    const out = run.result as unknown as { result: string; local_command: string }
    expect(out.local_command).toBe('permissions')
    const settings = join(box.project, '.claude', 'settings.json')
    expect(out.result.split('\n')).toEqual([
      'Permission mode: acceptEdits',
      'Allow (1):',
      '  Read              the command line',
      'Ask (1):',
      `  Bash(git push:*)  ${join(box.home, '.claude', 'settings.json')}`,
      'Deny (1):',
      `  Read(./.env)      ${settings}`,
      `Working directories: ${box.project}, ${box.outside}`,
      `Ignored, as this workspace is not trusted: allow Bash(npm test) (${settings})`,
    ])
  })
})
