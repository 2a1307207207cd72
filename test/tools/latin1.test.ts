import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import edit from '../../mods/edit/index.js'
import read from '../../mods/read/index.js'
import write from '../../mods/write/index.js'
import { openTools, tempDir, type Tools } from './harness.js'

let tmp: Awaited<ReturnType<typeof tempDir>>
let tools: Tools
beforeAll(async () => {
  tmp = await tempDir()
  tools = await openTools(tmp.dir, [read, edit, write])
})
afterAll(async () => {
  await tools.close()
  await tmp.remove()
})

// "café = 1\nline two\n" in Latin-1: 0xE9 alone is not valid UTF-8.
const latin1 = () => Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from(' = 1\nline two\n')])

async function file(name: string): Promise<string> {
  const path = join(tmp.dir, name)
  await writeFile(path, latin1())
  return path
}

describe('a file that is not UTF-8 (Latin-1)', () => {
  it('Read shows its characters', async () => {
    const path = await file('read.txt')
    const r = await tools.call('Read', { file_path: path })
    expect(r.text).toContain('café = 1')
    expect(r.text).not.toContain('\uFFFD')
  })

  it('Edit of another line writes the untouched bytes back as they were', async () => {
    const path = await file('edit.txt')
    await tools.call('Read', { file_path: path })
    const r = await tools.call('Edit', { file_path: path, old_string: 'line two', new_string: 'line 2' })
    expect(r.isError).toBe(false)
    const bytes = await readFile(path)
    expect(bytes.equals(Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from(' = 1\nline 2\n')]))).toBe(true)
  })

  it('Edit can write Latin-1 characters, and refuses those Latin-1 cannot hold, leaving the file as it was', async () => {
    const path = await file('edit2.txt')
    await tools.call('Read', { file_path: path })
    expect((await tools.call('Edit', { file_path: path, old_string: 'café', new_string: 'crème' })).isError).toBe(false)
    expect((await readFile(path)).subarray(0, 5).equals(Buffer.from([0x63, 0x72, 0xe8, 0x6d, 0x65]))).toBe(true)
    const before = await readFile(path)
    const r = await tools.call('Edit', { file_path: path, old_string: 'line two', new_string: 'line € two' })
    expect(r.isError).toBe(true)
    expect(r.text).toMatch(/is not UTF-8.*Latin-1/)
    expect((await readFile(path)).equals(before)).toBe(true)
  })

  it('Write keeps the file Latin-1 when the new text fits, and writes UTF-8 when it does not', async () => {
    const path = await file('write.txt')
    await tools.call('Read', { file_path: path })
    expect((await tools.call('Write', { file_path: path, content: 'déjà vu\n' })).isError).toBe(false)
    expect((await readFile(path)).equals(Buffer.from('déjà vu\n', 'latin1'))).toBe(true)
    expect((await tools.call('Write', { file_path: path, content: 'price: 5 €\n' })).isError).toBe(false)
    expect(await readFile(path, 'utf8')).toBe('price: 5 €\n')
  })
})
