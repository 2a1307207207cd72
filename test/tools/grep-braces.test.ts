import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import grep from '../../mods/grep/index.js'
import { findExecutable } from '../../mods/grep/find-executable.js'
import { openTools, tempDir, type Tools } from './harness.js'

let tmp: Awaited<ReturnType<typeof tempDir>>
let js: Tools
let rg: Tools | undefined
beforeAll(async () => {
  tmp = await tempDir()
  await writeFile(join(tmp.dir, 'a.txt'), 'aa{2,\nx{y}\nfoo-bar\n')
  js = await openTools(tmp.dir, [[grep, { engine: 'js' }]])
  if (await findExecutable('rg')) rg = await openTools(tmp.dir, [[grep, { engine: 'rg' }]])
})
afterAll(async () => {
  await js.close()
  await rg?.close()
  await tmp.remove()
})

describe('Grep with the JS engine: braces as ripgrep reads them', () => {
  for (const pattern of ['a{2,', 'x{y}', '{2}', 'a{,3}']) {
    it(`refuses "${pattern}", naming it, as ripgrep does`, async () => {
      const r = await js.call('Grep', { pattern, output_mode: 'content' })
      expect(r).toMatchObject({ isError: true, text: expect.stringContaining(`"${pattern}" is not a valid regular expression`) })
      if (rg) expect((await rg.call('Grep', { pattern, output_mode: 'content' })).isError).toBe(true)
    })
  }

  it('still takes counted repetitions, escaped braces and identity escapes', async () => {
    expect((await js.call('Grep', { pattern: 'a{2}', output_mode: 'content' })).text).toContain('aa{2,')
    expect((await js.call('Grep', { pattern: 'x\\{y\\}', output_mode: 'content' })).text).toContain('x{y}')
    expect((await js.call('Grep', { pattern: 'foo\\-b{1,}', output_mode: 'content' })).text).toContain('foo-bar')
  })
})
