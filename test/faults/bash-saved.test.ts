import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CappedText } from '../../mods/bash/capped-text.js'
import { FullOutput } from '../../mods/bash/full-output.js'
import { modelText } from '../../mods/bash/model-text.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'modloop-bash-saved-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('Bash says how much of its output was kept', () => {
  it('past the file cap: the size printed, the size kept and where, never "the full output"', async () => {
    const path = join(dir, 'out.txt')
    // A small file cap stands in for the 64 MiB one.
    const full = new FullOutput(path, 1_000, { fileChars: 4 * 1024 * 1024, backlogChars: 64 * 1024 * 1024 })
    const stdout = new CappedText(30_000)
    const chunk = 'x'.repeat(1024 * 1024)
    for (let i = 0; i < 6; i++) {
      stdout.push(chunk)
      full.push(chunk)
    }
    const { text, rawOutputPath } = await modelText({ stdout, stderr: new CappedText(30_000), full }, [], { cap: 30_000, failed: false })
    expect(rawOutputPath).toBe(path)
    expect(text).toContain(`The output was 6 MiB; the first 4 MiB of it were saved to: ${path}`)
    expect(text).not.toContain('full output')
    expect((await readFile(path, 'utf8')).startsWith('x'.repeat(4 * 1024 * 1024))).toBe(true)
  })
})
