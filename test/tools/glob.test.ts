import { mkdir, symlink, utimes, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import glob from '../../mods/glob/index.js'
import { openTools, tempDir, type Tools } from './harness.js'

let tmp: Awaited<ReturnType<typeof tempDir>>
let tools: Tools
const p = (name: string) => join(tmp.dir, name)

async function file(name: string, ageSeconds: number): Promise<void> {
  await mkdir(dirname(p(name)), { recursive: true })
  await writeFile(p(name), name)
  const t = new Date(Date.now() - ageSeconds * 1000)
  await utimes(p(name), t, t)
}

beforeAll(async () => {
  tmp = await tempDir()
  await file('old.ts', 300)
  await file('src/newest.ts', 10)
  await file('src/deep/middle.ts', 100)
  await file('src/readme.md', 50)
  await file('.hidden/config.ts', 200)
  await file('node_modules/pkg/index.ts', 1)
  await file('.git/hooks/x.ts', 1)
  for (let i = 0; i < 105; i++) await file(`many/f${i}.txt`, 1000 + i)
  tools = await openTools(tmp.dir, [glob])
})
afterAll(async () => {
  await tools.close()
  await tmp.remove()
})

describe('Glob', () => {
  it('returns matches newest first, hidden files included, .git and node_modules skipped', async () => {
    const r = await tools.call('Glob', { pattern: '**/*.ts' })
    expect((r.result as any).filenames).toEqual([p('src/newest.ts'), p('src/deep/middle.ts'), p('.hidden/config.ts'), p('old.ts')])
    expect(r.result).toMatchObject({ numFiles: 4, truncated: false, durationMs: expect.any(Number) })
    expect(r.text).toBe([p('src/newest.ts'), p('src/deep/middle.ts'), p('.hidden/config.ts'), p('old.ts')].join('\n'))
  })

  it('searches node_modules or .git when the pattern names them, as in Claude Code', async () => {
    expect((await tools.call('Glob', { pattern: 'node_modules/**/*.ts' })).text).toBe(p('node_modules/pkg/index.ts'))
    expect((await tools.call('Glob', { pattern: '.git/hooks/*' })).text).toBe(p('.git/hooks/x.ts'))
    // Named as a directory only: a file called node_modules.ts does not lift the ignore.
    expect((await tools.call('Glob', { pattern: '**/node_modules.ts' })).text).toBe('No files found')
  })

  it('searches under path, relative to the session directory or absolute', async () => {
    const rel = await tools.call('Glob', { pattern: '*.{ts,md}', path: 'src' })
    expect((rel.result as any).filenames).toEqual([p('src/newest.ts'), p('src/readme.md'), p('src/deep/middle.ts')])
    const abs = await tools.call('Glob', { pattern: '**/*.ts', path: p('src/deep') })
    expect((abs.result as any).filenames).toEqual([p('src/deep/middle.ts')])
  })

  it('matches a pattern without a slash at any depth, as Claude Code does', async () => {
    expect((await tools.call('Glob', { pattern: '*.ts' })).text).toBe([p('src/newest.ts'), p('src/deep/middle.ts'), p('.hidden/config.ts'), p('old.ts')].join('\n'))
    expect((await tools.call('Glob', { pattern: 'middle.ts', path: 'src' })).text).toBe(p('src/deep/middle.ts'))
  })

  it('caps at 100 results with a truncation note', async () => {
    const r = await tools.call('Glob', { pattern: 'many/*.txt' })
    expect(r.result).toMatchObject({ numFiles: 100, truncated: true })
    expect((r.result as any).filenames[0]).toBe(p('many/f0.txt'))
    expect(r.text).toContain('Results are truncated')
  })

  it('says so when nothing matches, and refuses paths outside the session directories', async () => {
    expect((await tools.call('Glob', { pattern: '**/*.rs' })).text).toBe('No files found')
    expect(await tools.call('Glob', { pattern: '*', path: '/' })).toMatchObject({ isError: true, text: expect.stringContaining('outside the directories') })
    expect(await tools.call('Glob', { pattern: '*', path: 'old.ts' })).toMatchObject({ isError: true, text: expect.stringContaining('must be a directory') })
  })
})

describe('Glob and symlinks', () => {
  it('neither follows nor lists them, so a link up the tree does not repeat its files', async () => {
    const t = await tempDir()
    await mkdir(join(t.dir, 'real'), { recursive: true })
    await writeFile(join(t.dir, 'real/a.ts'), 'a')
    await symlink('..', join(t.dir, 'real/up'))
    await symlink('real', join(t.dir, 'linked'))
    await symlink('real/a.ts', join(t.dir, 'b.ts'))
    const own = await openTools(t.dir, [glob])
    try {
      expect((await own.call('Glob', { pattern: '**/*.ts' })).text).toBe(join(t.dir, 'real/a.ts'))
    } finally {
      await own.close()
      await t.remove()
    }
  })
})
