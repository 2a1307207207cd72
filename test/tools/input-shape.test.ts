import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import edit from '../../mods/edit/index.js'
import read from '../../mods/read/index.js'
import write from '../../mods/write/index.js'
import { openTools, tempDir, type Tools } from './harness.js'

let tmp: Awaited<ReturnType<typeof tempDir>>
let tools: Tools
// The input tool.call handlers (the settings hooks among them) are shown.
const seen: Record<string, unknown>[] = []
const spy = defineMod({
  name: 'spy',
  register(on) {
    on('tool.call', (_$, e, next) => {
      const { tool_use_id: _, ...input } = e
      seen.push(input)
      return next(e)
    })
  },
})
const p = (name: string) => join(tmp.dir, name)

beforeAll(async () => {
  tmp = await tempDir()
  await writeFile(p('q.txt'), 'q\n')
  tools = await openTools(tmp.dir, [spy, read, edit, write])
})
afterAll(async () => {
  await tools.close()
  await tmp.remove()
})

describe('input sent in a text editor tool’s shape, as Claude Code reads it', () => {
  it('Write takes path and file_text, leaves out description and repeats, and says so after its result', async () => {
    const r = await tools.call('Write', { path: p('a.txt'), file_text: 'a\n', description: 'make a' })
    expect(r.isError).toBe(false)
    expect(r.text).toMatch(/\n\nNote: Write takes `file_path` and `content`\. `path` was taken as `file_path`\. `file_text` was taken as `content`\. `description` was left out\.$/)
    expect(await readFile(p('a.txt'), 'utf8')).toBe('a\n')
    const again = await tools.call('Write', { file_path: p('b.txt'), file: p('b.txt'), content: 'b\n', text: 'b\n' })
    expect(again).toMatchObject({ isError: false, text: expect.stringContaining('`file` only repeated `file_path` and was left out. `text` only repeated `content` and was left out.') })
    expect(seen.at(-1)).toEqual({ tool: 'Write', file_path: p('b.txt'), content: 'b\n' })
  })

  it('Edit takes path, old_str and new_str as its own parameters', async () => {
    await tools.call('Read', { file_path: p('q.txt') })
    const r = await tools.call('Edit', { path: p('q.txt'), old_str: 'q', new_str: 'r' })
    expect(r.isError).toBe(false)
    expect(r.text).not.toContain('Note:')
    expect(await readFile(p('q.txt'), 'utf8')).toBe('r\n')
    expect(seen.at(-1)).toEqual({ tool: 'Edit', file_path: p('q.txt'), old_string: 'q', new_string: 'r', replace_all: false })
  })

  it('still refuses a name it does not know, and Read takes no path', async () => {
    expect(await tools.call('Write', { file_path: p('c.txt'), contents: 'c\n' })).toMatchObject({ isError: true, text: expect.stringContaining('An unexpected parameter `contents`') })
    expect(await tools.call('Read', { path: p('q.txt') })).toMatchObject({ isError: true, text: expect.stringContaining('An unexpected parameter `path`') })
  })
})
