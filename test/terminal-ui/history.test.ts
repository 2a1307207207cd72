import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { appendHistory, historyFile, readHistory } from '../../mods/terminal-ui/history.js'

describe('prompt history on disk', () => {
  it('lives per project under MODLOOP_HOME', () => {
    expect(historyFile('/work/proj', { MODLOOP_HOME: '/h' })).toBe('/h/history/-work-proj.jsonl')
  })

  it('skips a last line torn by a crash, and the next entry after it still reads back', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'modloop-history-')), 'history.jsonl')
    await writeFile(file, `${JSON.stringify('first')}\n${JSON.stringify('multi\nline')}\n"cut off in the mid`)
    expect(await readHistory(file)).toEqual(['first', 'multi\nline'])
    await appendHistory(file, 'after the crash')
    expect(await readHistory(file)).toEqual(['first', 'multi\nline', 'after the crash'])
    expect(await readFile(file, 'utf8')).toMatch(/"cut off in the mid\n"after the crash"\n$/)
  })

  it('reads nothing from a missing file, and creates it on the first entry', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'modloop-history-')), 'deep', 'history.jsonl')
    expect(await readHistory(file)).toEqual([])
    await appendHistory(file, 'one')
    expect(await readHistory(file)).toEqual(['one'])
  })
})
