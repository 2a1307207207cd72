import { rm, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AutoCompactSetting } from '../../mods/compaction/auto-compact-setting.js'
import { tempDir } from '../context/fixtures.js'

let dir: string
beforeAll(async () => { dir = await tempDir('auto-compact-setting') })
afterAll(() => rm(dir, { recursive: true, force: true }))

/** Writes the file with a modification time of its own, so each write is a change whatever the clock's grain. */
async function write(file: string, text: string, second: number): Promise<void> {
  await writeFile(file, text)
  await utimes(file, second, second)
}

describe("~/.claude.json's autoCompactEnabled", () => {
  it('is on without the file, off once it says false, on again once it says true: read again only when the file changed', async () => {
    const file = join(dir, '.claude.json')
    const warnings: string[] = []
    const s = new AutoCompactSetting()
    await s.refresh(file, (w) => warnings.push(w))
    expect(s.enabled).toBe(true)
    await write(file, '{"autoCompactEnabled": false, "theme": "dark"}', 1_000)
    await s.refresh(file, (w) => warnings.push(w))
    expect(s.enabled).toBe(false)
    // The same modification time is not read again: what it holds now is not seen.
    await write(file, '{"autoCompactEnabled": true}', 1_000)
    await s.refresh(file, (w) => warnings.push(w))
    expect(s.enabled).toBe(false)
    await utimes(file, 2_000, 2_000)
    await s.refresh(file, (w) => warnings.push(w))
    expect(s.enabled).toBe(true)
    expect(warnings).toEqual([])
  })

  it('a value that is not a boolean, or a file that is not JSON, is a warning naming the file, and compaction stays on', async () => {
    const file = join(dir, 'bad.json')
    const warnings: string[] = []
    const s = new AutoCompactSetting()
    await write(file, '{"autoCompactEnabled": "no"}', 1_000)
    await s.refresh(file, (w) => warnings.push(w))
    expect(s.enabled).toBe(true)
    await write(file, '{not json', 2_000)
    await s.refresh(file, (w) => warnings.push(w))
    expect(s.enabled).toBe(true)
    expect(warnings).toEqual([
      `${file}: "autoCompactEnabled" must be true or false; ignored`,
      expect.stringMatching(new RegExp(`^${file} is not valid JSON .*; autoCompactEnabled is not read from it$`)),
    ])
  })
})
