import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import edit from '../../mods/edit/index.js'
import read from '../../mods/read/index.js'
import { openTools, tempDir, type Tools } from './harness.js'

let tmp: Awaited<ReturnType<typeof tempDir>>
let tools: Tools
const p = (name: string) => join(tmp.dir, name)

async function fresh(name: string, content: string | Buffer): Promise<string> {
  await writeFile(p(name), content)
  await tools.call('Read', { file_path: p(name) })
  return p(name)
}

beforeAll(async () => {
  tmp = await tempDir()
  tools = await openTools(tmp.dir, [read, edit])
})
afterAll(async () => {
  await tools.close()
  await tmp.remove()
})

describe('Edit', () => {
  it('replaces a unique string, shows a numbered snippet and returns the patch', async () => {
    const file = await fresh('code.ts', 'const a = 1\nconst b = 2\nconst c = 3\n')
    const r = await tools.call('Edit', { file_path: file, old_string: 'const b = 2', new_string: 'const b = 20' })
    expect(r.isError).toBe(false)
    expect(await readFile(file, 'utf8')).toBe('const a = 1\nconst b = 20\nconst c = 3\n')
    expect(r.text).toContain(file)
    expect(r.text).toContain('     2\tconst b = 20')
    expect(r.result).toMatchObject({
      filePath: file, oldString: 'const b = 2', newString: 'const b = 20', originalFile: 'const a = 1\nconst b = 2\nconst c = 3\n',
      userModified: false, replaceAll: false, structuredPatch: [{ lines: [' const a = 1', '-const b = 2', '+const b = 20', ' const c = 3'] }],
    })
  })

  it('refuses an ambiguous old_string naming the count, and replace_all changes every one', async () => {
    const file = await fresh('dup.txt', 'foo bar foo baz foo\n')
    const r = await tools.call('Edit', { file_path: file, old_string: 'foo', new_string: 'qux' })
    expect(r).toMatchObject({ isError: true, text: expect.stringContaining('occurs 3 times') })
    const all = await tools.call('Edit', { file_path: file, old_string: 'foo', new_string: 'qux', replace_all: true })
    expect(all.text).toContain('3 replacements')
    expect(await readFile(file, 'utf8')).toBe('qux bar qux baz qux\n')
    // A boolean sent as a string is taken as the boolean it spells.
    expect((await tools.call('Edit', { file_path: file, old_string: 'qux', new_string: 'q', replace_all: 'true' })).text).toContain('3 replacements')
  })

  it('errors on a missing old_string and on old_string equal to new_string', async () => {
    const file = await fresh('plain.txt', 'hello\n')
    expect(await tools.call('Edit', { file_path: file, old_string: 'absent', new_string: 'x' })).toMatchObject({ isError: true, text: expect.stringContaining('was not found') })
    expect(await tools.call('Edit', { file_path: file, old_string: 'hello', new_string: 'hello' })).toMatchObject({ isError: true, text: expect.stringContaining('the same') })
  })

  it('matches old_string across curly and straight quotes, keeping the file\'s quote style', async () => {
    const curly = await fresh('curly.md', 'say \u2018hi\u2019 and \u201Cbye\u201D\n')
    const r = await tools.call('Edit', { file_path: curly, old_string: `say 'hi' and "bye"`, new_string: `say 'yo' and "it's done"` })
    expect(r.isError).toBe(false)
    expect(await readFile(curly, 'utf8')).toBe('say \u2018yo\u2019 and \u201Cit\u2019s done\u201D\n')
    const straight = await fresh('straight.md', "x = 'a'\ny = 'a'\n")
    expect(await tools.call('Edit', { file_path: straight, old_string: '\u2018a\u2019', new_string: "'b'" })).toMatchObject({ isError: true, text: expect.stringContaining('occurs 2 times') })
    await tools.call('Edit', { file_path: straight, old_string: '\u2018a\u2019', new_string: "'b'", replace_all: true })
    expect(await readFile(straight, 'utf8')).toBe("x = 'b'\ny = 'b'\n")
  })

  it('deleting the text of whole lines deletes the lines, in LF and CRLF files', async () => {
    const lf = await fresh('lines.txt', 'keep\ndelete me\nkeep2\ndelete me\n')
    expect((await tools.call('Edit', { file_path: lf, old_string: 'delete me', new_string: '', replace_all: true })).isError).toBe(false)
    expect(await readFile(lf, 'utf8')).toBe('keep\nkeep2\n')
    const crlf = await fresh('lines-crlf.txt', 'a\r\nb\r\nc\r\n')
    await tools.call('Edit', { file_path: crlf, old_string: 'a\nb', new_string: '' })
    expect(await readFile(crlf, 'utf8')).toBe('c\r\n')
    const inLine = await fresh('in-line.txt', 'keep this\n')
    await tools.call('Edit', { file_path: inLine, old_string: ' this', new_string: '' })
    expect(await readFile(inLine, 'utf8')).toBe('keep\n')
  })

  it('needs a Read first, and a fresh one after the file changed on disk unless old_string still matches', async () => {
    await writeFile(p('unread.txt'), 'x\n')
    expect(await tools.call('Edit', { file_path: p('unread.txt'), old_string: 'x', new_string: 'y' })).toMatchObject({ isError: true, text: expect.stringContaining('has not been read') })
    const file = await fresh('changing.txt', 'v1\nkeep\n')
    await new Promise((r) => setTimeout(r, 20))
    await writeFile(file, 'v2\nkeep\n')
    expect(await tools.call('Edit', { file_path: file, old_string: 'v1', new_string: 'v3' })).toMatchObject({ isError: true, text: expect.stringContaining('changed on disk') })
    // What the model saw is still there, once: the edit applies, and the model hears of the other change.
    const stale = await tools.call('Edit', { file_path: file, old_string: 'keep', new_string: 'kept' })
    expect(stale).toMatchObject({ isError: false, text: expect.stringContaining('changed on disk since it was read') })
    expect(await readFile(file, 'utf8')).toBe('v2\nkept\n')
    await tools.call('Read', { file_path: file })
    expect((await tools.call('Edit', { file_path: file, old_string: 'v2', new_string: 'v3' })).isError).toBe(false)
    // Consecutive edits need no new Read: the edit itself is what the model last saw.
    expect((await tools.call('Edit', { file_path: file, old_string: 'v3', new_string: 'v4' })).isError).toBe(false)
  })

  it('keeps CRLF line endings: old and new strings written with LF match and are written with CRLF', async () => {
    const file = await fresh('win.txt', 'line one\r\nline two\r\nline three\r\n')
    const r = await tools.call('Edit', { file_path: file, old_string: 'line one\nline two', new_string: 'first\nsecond\nsecond and a half' })
    expect(r.isError).toBe(false)
    expect(await readFile(file, 'utf8')).toBe('first\r\nsecond\r\nsecond and a half\r\nline three\r\n')
  })

  it('keeps the BOM and UTF-16 encoding', async () => {
    const utf8 = await fresh('bom.txt', Buffer.from('\ufeffalpha beta\n', 'utf8'))
    await tools.call('Edit', { file_path: utf8, old_string: 'beta', new_string: 'gamma' })
    expect(await readFile(utf8)).toEqual(Buffer.from('\ufeffalpha gamma\n', 'utf8'))
    const utf16 = await fresh('wide.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('wide text\n', 'utf16le')]))
    await tools.call('Edit', { file_path: utf16, old_string: 'wide', new_string: 'narrow' })
    expect(await readFile(utf16)).toEqual(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('narrow text\n', 'utf16le')]))
  })

  it('creates a file from an empty old_string, and refuses an empty old_string for a file with content', async () => {
    const r = await tools.call('Edit', { file_path: p('made/by-edit.txt'), old_string: '', new_string: 'created\n' })
    expect(r.isError).toBe(false)
    expect(await readFile(p('made/by-edit.txt'), 'utf8')).toBe('created\n')
    const file = await fresh('full.txt', 'content\n')
    expect(await tools.call('Edit', { file_path: file, old_string: '', new_string: 'x' })).toMatchObject({ isError: true })
  })

  it('does not treat $ patterns in new_string specially', async () => {
    const file = await fresh('dollar.txt', 'price: X\n')
    await tools.call('Edit', { file_path: file, old_string: 'X', new_string: "$& $1 $$ $'" })
    expect(await readFile(file, 'utf8')).toBe("price: $& $1 $$ $'\n")
  })
})
