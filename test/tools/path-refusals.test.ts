import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import edit from '../../mods/edit/index.js'
import grep from '../../mods/grep/index.js'
import read from '../../mods/read/index.js'
import write from '../../mods/write/index.js'
import { openTools, tempDir, type Tools } from './harness.js'

let tmp: Awaited<ReturnType<typeof tempDir>>
let outside: Awaited<ReturnType<typeof tempDir>>
let tools: Tools
beforeAll(async () => {
  tmp = await tempDir()
  outside = await tempDir()
  await writeFile(join(tmp.dir, 'inside.txt'), 'hello inside\n')
  await writeFile(join(outside.dir, 'secret.txt'), 'secret outside\n')
  tools = await openTools(tmp.dir, [read, edit, write, grep])
})
afterAll(async () => {
  await tools.close()
  await tmp.remove()
  await outside.remove()
})

const refusedOutside = { isError: true, text: expect.stringContaining('is outside the directories this session may use') }

describe('file tools refuse paths they may not use', () => {
  it('Edit: a file outside the session directories is refused and left as it was', async () => {
    const file = join(outside.dir, 'secret.txt')
    // Read first, so the refusal is the path's and not read-before-edit's (Read refuses it too).
    expect(await tools.call('Read', { file_path: file })).toMatchObject(refusedOutside)
    expect(await tools.call('Edit', { file_path: file, old_string: 'secret', new_string: 'leaked' })).toMatchObject(refusedOutside)
    expect(await readFile(file, 'utf8')).toBe('secret outside\n')
  })

  it('Grep: a search path outside the session directories is refused', async () => {
    const r = await tools.call('Grep', { pattern: 'secret', path: outside.dir, output_mode: 'content' })
    expect(r).toMatchObject({ isError: true, text: expect.stringContaining(`${outside.dir} is outside the directories this session may use`) })
    expect(r.text).not.toContain('secret outside')
    expect(await tools.call('Grep', { pattern: 'secret', path: '../', output_mode: 'files_with_matches' })).toMatchObject(refusedOutside)
  })
})
