import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import agentMod from '../../mods/agent/index.js'
import bashMod from '../../mods/bash/index.js'
import commandsMod from '../../mods/commands/index.js'
import editMod from '../../mods/edit/index.js'
import readMod from '../../mods/read/index.js'
import writeMod from '../../mods/write/index.js'
import { tempDir, withOptions, writeTree } from '../context/fixtures.js'
import { conversation } from '../sdk/conversation.js'

let cwd: string
let home: string
beforeAll(async () => {
  cwd = await tempDir('modloop-code-changes-')
  home = await tempDir('modloop-code-changes-home-')
  await writeTree(cwd, {
    'old.txt': 'one\ntwo\nthree\n',
    'e.txt': 'foo\nbar\nfoo\nbaz\n',
    's.txt': 'l1\nl2\n',
    'nb.ipynb': JSON.stringify({ cells: [{ cell_type: 'code', id: 'c1', metadata: {}, outputs: [], execution_count: null, source: ['a = 1'] }], metadata: {}, nbformat: 4, nbformat_minor: 5 }),
  })
})
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true })
  await rm(home, { recursive: true, force: true })
})

const use = (name: string, input: Record<string, unknown>) => ({ tool_use: { name, input } })
const codeChanges = (text: unknown) => /^Total code changes: +(.*)$/m.exec(String(text))?.[1]

describe('counting the lines edits change', () => {
  it('/cost counts what Write and Edit changed, a subagent\'s edits too, but not a failed edit, a notebook or a shell command', async () => {
    const at = (f: string) => join(cwd, f)
    const c = await conversation([
      { reply: [use('Write', { file_path: at('new.txt'), content: 'a\nb\nc\n' })] },
      { reply: [use('Read', { file_path: at('old.txt') })] },
      { reply: [use('Write', { file_path: at('old.txt'), content: 'one\nTWO\nthree\nfour\n' })] },
      { reply: 'written' },
      { reply: [use('Read', { file_path: at('e.txt') })] },
      { reply: [use('Edit', { file_path: at('e.txt'), old_string: 'foo', new_string: 'qux\nquux', replace_all: true })] },
      { reply: [use('Edit', { file_path: at('e.txt'), old_string: 'nothere', new_string: 'x' })] },
      { reply: [use('Read', { file_path: at('nb.ipynb') })] },
      { reply: [use('NotebookEdit', { notebook_path: at('nb.ipynb'), cell_id: 'c1', new_source: 'a = 10\nb = 2' })] },
      { reply: [use('Bash', { command: `sed -i 's/l2/L2/' ${at('s.txt')}` })] },
      { reply: 'edited' },
      { reply: [use('Agent', { description: 'write', prompt: 'write a file' })] },
      { reply: [use('Write', { file_path: at('sub.txt'), content: 's1\ns2' })] },
      { reply: 'sub done' },
      { reply: 'delegated' },
    ], { cwd, mods: [withOptions(commandsMod, { home }), readMod, writeMod, editMod, bashMod, agentMod] })
    try {
      expect(codeChanges((await c.say('/cost')).result)).toBe('0 lines added, 0 lines removed')
      await c.say('write')
      // A new file counts each piece between newlines, so its final newline adds one (Claude Code's count).
      expect(codeChanges((await c.say('/cost')).result)).toBe('6 lines added, 1 line removed')
      await c.say('edit')
      // The notebook and the shell command did change their files; the lines are not counted.
      expect(await readFile(at('nb.ipynb'), 'utf8')).toContain('a = 10')
      expect(await readFile(at('s.txt'), 'utf8')).toBe('l1\nL2\n')
      expect(codeChanges((await c.say('/usage')).result)).toBe('10 lines added, 3 lines removed')
      await c.say('delegate')
      expect(codeChanges((await c.say('/cost')).result)).toBe('12 lines added, 3 lines removed')
      expect(c.server.requests).toHaveLength(15)
      // A new conversation counts afresh.
      await c.say('/clear')
      expect(codeChanges((await c.say('/cost')).result)).toBe('0 lines added, 0 lines removed')
    } finally {
      await c.end()
    }
  })
})
