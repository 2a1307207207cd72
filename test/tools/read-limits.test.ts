import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import read from '../../mods/read/index.js'
import { openTools, tempDir, type Tools } from './harness.js'

let tmp: Awaited<ReturnType<typeof tempDir>>
let tools: Tools
let capped: Tools
const p = (name: string) => join(tmp.dir, name)
// 100-character lines: 3,072 of them make 300KB, past the output cap (25,000 tokens' worth).
const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1} `.padEnd(99, 'x')).join('\n') + '\n'

beforeAll(async () => {
  tmp = await tempDir()
  await writeFile(p('300k.txt'), lines(3_072))
  await writeFile(p('700k.txt'), lines(7_000))
  await writeFile(p('sixty.txt'), Array.from({ length: 60 }, (_, i) => `word word word word word word ${i}`).join('\n'))
  tools = await openTools(tmp.dir, [read])
  capped = await openTools(tmp.dir, [read], { CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS: '100' })
})
afterAll(async () => {
  await tools.close()
  await capped.close()
  await tmp.remove()
})

describe('Read size limits', () => {
  it('gives a file over 256KB read whole its first page with a PARTIAL view notice, offset or not; a limit reads part, allow_large all of it', async () => {
    const first = await tools.call('Read', { file_path: p('300k.txt') })
    expect(first.isError).toBe(false)
    expect(first.text).toMatch(/^ {5}1\tline 1 x+\n[^]*\n\n\[Truncated: PARTIAL view - .*300k\.txt: showing lines 1-\d+ of 3072;/)
    const part = await tools.call('Read', { file_path: p('300k.txt'), limit: 3 })
    expect(part).toMatchObject({ isError: false, text: expect.stringMatching(/^ {5}1\tline 1 x+\n {5}2\t/) })
    // allow_large takes the whole file, past the 2,000 lines of a first page, when the context has room.
    const whole = await tools.call('Read', { file_path: p('300k.txt'), allow_large: true })
    expect(whole.isError).toBe(false)
    expect(whole.text).toMatch(/\n {2}3072\tline 3072 x+$/)
  })

  it('refuses an explicit range over the token cap, saying how large it is; allow_large lifts the cap', async () => {
    for (const input of [{ offset: 1, limit: 60 }, { limit: 60 }, { offset: 5 }]) {
      const r = await capped.call('Read', { file_path: p('sixty.txt'), ...input })
      expect(r.isError, JSON.stringify(input)).toBe(true)
      expect(r.text).toMatch(/^File content \(\d{3} tokens\) is more than Read returns at once \(100 tokens\)\..*allow_large: true/)
    }
    const small = await capped.call('Read', { file_path: p('sixty.txt'), offset: 1, limit: 5 })
    expect(small).toMatchObject({ isError: false, text: expect.stringMatching(/^ {5}1\tword[^]*\n {5}5\tword word word word word word 4\n\n<system-reminder>/) })
    const lifted = await capped.call('Read', { file_path: p('sixty.txt'), offset: 1, limit: 60, allow_large: true })
    expect(lifted).toMatchObject({ isError: false, text: expect.stringMatching(/\n {4}60\tword word word word word word 59$/) })
  })

  it('cuts a whole-file read at the token cap with a PARTIAL view notice that says where to read on', async () => {
    const r = await capped.call('Read', { file_path: p('sixty.txt') })
    expect(r.isError).toBe(false)
    const [page, notice] = r.text.split('\n\n')
    const shown = page!.split('\n').length
    expect(shown).toBeGreaterThan(1)
    expect(shown).toBeLessThan(60)
    expect(notice).toMatch(new RegExp(`^\\[Truncated: PARTIAL view - ${p('sixty.txt')}: showing lines 1-${shown} of 60; lines 1-60 come to about \\d+ tokens, over the cap of 100\\. Read on with offset=${shown + 1} limit=${shown}, .*allow_large: true.*\\]$`))
  })

  it('with allow_large, refuses a range past the room the context has left, and pages a whole file at the usual cap', async () => {
    // The harness's model has a 200K window: two thirds of it is about 530KB of text, under this file.
    const range = await tools.call('Read', { file_path: p('700k.txt'), offset: 1, limit: 7_000, allow_large: true })
    expect(range.isError).toBe(true)
    expect(range.text).toMatch(/^File content \(\d+ tokens\) is more than Read returns at once \(\d+ tokens\)\..*Even allow_large cannot help/)
    const whole = await tools.call('Read', { file_path: p('700k.txt'), allow_large: true })
    expect(whole.isError).toBe(false)
    expect(whole.text).toMatch(/\[Truncated: PARTIAL view - .*: showing lines 1-\d+ of 7000; lines 1-7000 come to about \d+ tokens, over the cap of 25000\..*Even allow_large cannot help/)
  })
})
