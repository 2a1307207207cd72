import { mkdir, readFile, realpath } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import bash from '../../mods/bash/index.js'
import { cmd, dump, dumped, makeBox, run, writeSettings, type Box } from './helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

const bashCall = (command: string, id: string) => ({ tool_use: { id, name: 'Bash', input: { command } } })

describe('hook cwd', () => {
  it('follows the shell after `cd`: the stdin field and where the hook runs; CLAUDE_PROJECT_DIR stays the root', async () => {
    await mkdir(join(box.project, 'src'))
    const where = join(box.out, 'where.txt')
    await writeSettings(box, { PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`${dump(box, 'PreToolUse')}; echo "$(pwd -P) $CLAUDE_PROJECT_DIR" >> ${where}`)] }] })
    await run(box, [
      { reply: [bashCall('cd src', 'toolu_1')] },
      { reply: [bashCall('true', 'toolu_2')] },
      { reply: 'ok' },
    ], 'go', { mods: [bash] })
    const root = await realpath(box.project)
    const src = join(root, 'src')
    expect((await dumped(box, 'PreToolUse')).map((e) => e.cwd)).toEqual([box.project, src])
    expect((await readFile(where, 'utf8')).trim().split('\n')).toEqual([`${root} ${box.project}`, `${src} ${box.project}`])
  })
})
