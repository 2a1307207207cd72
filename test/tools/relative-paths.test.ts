import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import bash from '../../mods/bash/index.js'
import edit from '../../mods/edit/index.js'
import read from '../../mods/read/index.js'
import write from '../../mods/write/index.js'
import { openTools, tempDir, type Tools } from './harness.js'

let tmp: Awaited<ReturnType<typeof tempDir>>
let tools: Tools
let home: string | undefined
// What tool.call handlers (the settings hooks among them) are shown of each call.
const seen: unknown[] = []
const spy = defineMod({
  name: 'spy',
  register(on) {
    on('tool.call', (_$, e, next) => {
      seen.push(e.file_path ?? e.notebook_path)
      return next(e)
    })
  },
})

beforeAll(async () => {
  tmp = await tempDir()
  // The home folder is the session directory here, so a `~/` path is one the tools may use.
  home = process.env.HOME
  process.env.HOME = tmp.dir
  await writeFile(join(tmp.dir, 'a.txt'), 'hello\n')
  await mkdir(join(tmp.dir, 'src'))
  await writeFile(join(tmp.dir, 'src', 'a.txt'), 'in src\n')
  tools = await openTools(tmp.dir, [spy, read, edit, write, bash])
})
afterAll(async () => {
  process.env.HOME = home
  await tools.close()
  await tmp.remove()
})

describe('a relative or ~/ path, as models often send one', () => {
  it('is taken from the session directory or the home folder, and shown to handlers as the absolute path', async () => {
    seen.length = 0
    expect(await tools.call('Read', { file_path: 'a.txt' })).toMatchObject({ isError: false, text: expect.stringContaining('hello') })
    expect(await tools.call('Edit', { file_path: './a.txt', old_string: 'hello', new_string: 'bye' })).toMatchObject({ isError: false })
    expect(await tools.call('Write', { file_path: '~/sub/b.txt', content: 'new\n' })).toMatchObject({ isError: false })
    expect(await tools.call('NotebookEdit', { notebook_path: 'n.ipynb', new_source: 'x', cell_type: 'code', edit_mode: 'insert' })).toMatchObject({ isError: true })
    expect(await readFile(join(tmp.dir, 'a.txt'), 'utf8')).toBe('bye\n')
    expect(await readFile(join(tmp.dir, 'sub', 'b.txt'), 'utf8')).toBe('new\n')
    expect(seen).toEqual([join(tmp.dir, 'a.txt'), join(tmp.dir, 'a.txt'), join(tmp.dir, 'sub', 'b.txt'), join(tmp.dir, 'n.ipynb')])
  })

  it('loses the spaces or newline a model left around it', async () => {
    expect(await tools.call('Read', { file_path: ` ${join(tmp.dir, 'a.txt')}` })).toMatchObject({ isError: false })
    expect(await tools.call('Write', { file_path: 'spaced.txt \n', content: 's\n' })).toMatchObject({ isError: false })
    expect(await readFile(join(tmp.dir, 'spaced.txt'), 'utf8')).toBe('s\n')
  })

  it('still may not lead outside the session directories', async () => {
    const r = await tools.call('Write', { file_path: '../escaped.txt', content: 'x' })
    expect(r).toMatchObject({ isError: true, text: expect.stringContaining('is outside the directories this session may use') })
  })

  it('starts where the shell is after cd, as a command there would see it', async () => {
    expect(await tools.call('Bash', { command: 'cd src' })).toMatchObject({ isError: false })
    expect(await tools.call('Read', { file_path: 'a.txt' })).toMatchObject({ isError: false, text: expect.stringContaining('in src') })
    expect(await tools.call('Write', { file_path: 'b.txt', content: 'beside\n' })).toMatchObject({ isError: false })
    expect(await readFile(join(tmp.dir, 'src', 'b.txt'), 'utf8')).toBe('beside\n')
    await tools.call('Bash', { command: 'cd ..' })
  })
})
