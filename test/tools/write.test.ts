import { lstat, readdir, readFile, symlink, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import read from '../../mods/read/index.js'
import write from '../../mods/write/index.js'
import { openTools, tempDir, type Tools } from './harness.js'

let tmp: Awaited<ReturnType<typeof tempDir>>
let tools: Tools
const p = (name: string) => join(tmp.dir, name)

beforeAll(async () => {
  tmp = await tempDir()
  tools = await openTools(tmp.dir, [read, write])
})
afterAll(async () => {
  await tools.close()
  await tmp.remove()
})

describe('Write', () => {
  it('creates a file and its parent directories', async () => {
    const r = await tools.call('Write', { file_path: p('a/b/new.txt'), content: 'hello\nworld\n' })
    expect(r.isError).toBe(false)
    expect(r.result).toEqual({ type: 'create', filePath: p('a/b/new.txt'), content: 'hello\nworld\n', structuredPatch: [], originalFile: null })
    expect(r.text).toContain('Created')
    expect(await readFile(p('a/b/new.txt'), 'utf8')).toBe('hello\nworld\n')
  })

  it('refuses to overwrite a file not read in this session', async () => {
    await writeFile(p('unread.txt'), 'old\n')
    const r = await tools.call('Write', { file_path: p('unread.txt'), content: 'new\n' })
    expect(r).toMatchObject({ isError: true, text: expect.stringContaining('has not been read') })
    expect(await readFile(p('unread.txt'), 'utf8')).toBe('old\n')
  })

  it('overwrites after a Read, with an update result and its patch', async () => {
    await writeFile(p('doc.txt'), 'a\nb\nc\n')
    await tools.call('Read', { file_path: p('doc.txt') })
    const r = await tools.call('Write', { file_path: p('doc.txt'), content: 'a\nB\nc\n' })
    expect(r.isError).toBe(false)
    expect(r.result).toMatchObject({ type: 'update', originalFile: 'a\nb\nc\n', structuredPatch: [{ oldStart: 1, newStart: 1, lines: [' a', '-b', '+B', ' c'] }] })
    expect(r.text).toContain('     2\tB')
    // Its own write counts as read: a second Write needs no new Read.
    expect((await tools.call('Write', { file_path: p('doc.txt'), content: 'x\n' })).isError).toBe(false)
  })

  it('refuses when the file changed on disk since it was read, but not when it was only touched', async () => {
    await writeFile(p('moving.txt'), 'v1\n')
    await tools.call('Read', { file_path: p('moving.txt') })
    const later = new Date(Date.now() + 5_000)
    await utimes(p('moving.txt'), later, later)
    expect((await tools.call('Write', { file_path: p('moving.txt'), content: 'v2\n' })).isError).toBe(false)
    await writeFile(p('moving.txt'), 'changed by someone else\n')
    const even = new Date(Date.now() + 10_000)
    await utimes(p('moving.txt'), even, even)
    const r = await tools.call('Write', { file_path: p('moving.txt'), content: 'v3\n' })
    expect(r).toMatchObject({ isError: true, text: expect.stringContaining('changed on disk') })
  })

  it('refuses after a partial read', async () => {
    await writeFile(p('big.txt'), 'l1\nl2\nl3\n')
    await tools.call('Read', { file_path: p('big.txt'), limit: 1 })
    const r = await tools.call('Write', { file_path: p('big.txt'), content: 'x\n' })
    expect(r).toMatchObject({ isError: true, text: expect.stringContaining('Only part of') })
  })

  it('keeps CRLF line endings and a BOM of the file it replaces, atomically (no temp file left)', async () => {
    await writeFile(p('win.txt'), Buffer.from('\ufeffone\r\ntwo\r\n', 'utf8'))
    await tools.call('Read', { file_path: p('win.txt') })
    expect((await tools.call('Write', { file_path: p('win.txt'), content: 'uno\ndos\n' })).isError).toBe(false)
    expect(await readFile(p('win.txt'))).toEqual(Buffer.from('\ufeffuno\r\ndos\r\n', 'utf8'))
    expect((await readdir(tmp.dir)).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })

  it('through a symlink to nothing, creates its target and keeps the link; one pointing outside is refused', async () => {
    await symlink('made-later.txt', p('dangling.txt'))
    expect((await tools.call('Write', { file_path: p('dangling.txt'), content: 'via link\n' })).isError).toBe(false)
    expect((await lstat(p('dangling.txt'))).isSymbolicLink()).toBe(true)
    expect(await readFile(p('made-later.txt'), 'utf8')).toBe('via link\n')
    await symlink('/etc/modloop-should-not-exist', p('escape.txt'))
    const r = await tools.call('Write', { file_path: p('escape.txt'), content: 'x' })
    expect(r).toMatchObject({ isError: true, text: expect.stringContaining('resolves to /etc/modloop-should-not-exist') })
    expect((await lstat(p('escape.txt'))).isSymbolicLink()).toBe(true)
  })

  it('refuses paths outside the session directories', async () => {
    const r = await tools.call('Write', { file_path: '/etc/modloop-should-not-exist', content: 'x' })
    expect(r).toMatchObject({ isError: true, text: expect.stringContaining('outside the directories') })
  })
})
