import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import glob from '../../mods/glob/index.js'
import grep from '../../mods/grep/index.js'
import { findExecutable } from '../../mods/grep/find-executable.js'
import { permissionsWith } from '../permissions/helpers.js'
import { openTools, tempDir, type Tools } from './harness.js'

// Grep and Glob leave out every file a Read deny rule covers, whichever settings file holds the
// rule, as Claude Code's do: nothing of a denied file reaches the model, and counts leave it out.
let tmp: Awaited<ReturnType<typeof tempDir>>
let project: string
const engines: { name: string; tools?: Tools }[] = [{ name: 'JavaScript' }, { name: 'ripgrep' }]
const p = (name: string) => join(project, name)

const FILES: Record<string, string> = {
  '.env': 'needle=1\n',
  'a.txt': 'needle a\n',
  'b.txt': 'x\nneedle b\ny\n',
  'docs/c.txt': 'x\nneedle c\ny\n',
  'docs/readme.md': 'needle readme\n',
  'e.txt': 'x\nneedle e\ny\n',
  'notes.md': 'needle notes\n',
  'secrets/token.txt': 'needle token\n',
  'src/id.key': 'needle key\n',
  'src/main.ts': 'needle main\n',
  'sub/.env': 'needle sub\n',
}

beforeAll(async () => {
  tmp = await tempDir()
  project = join(tmp.dir, 'project')
  const home = join(tmp.dir, 'home')
  for (const [name, content] of Object.entries(FILES)) {
    await mkdir(dirname(p(name)), { recursive: true })
    await writeFile(p(name), content)
  }
  await mkdir(join(project, '.claude'))
  await writeFile(join(project, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Read(./docs/**)', 'Read(**/.env)', `Read(/${project}/secrets/**)`] } }))
  await mkdir(join(home, '.claude'), { recursive: true })
  await writeFile(join(home, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Read(*.key)'] } }))
  const permissions = permissionsWith({ home, trustStore: join(tmp.dir, 'trusted.json'), managedDir: false })
  engines[0]!.tools = await openTools(project, [[grep, { engine: 'js' }], glob, permissions])
  if (await findExecutable('rg')) engines[1]!.tools = await openTools(project, [[grep, { engine: 'rg' }], permissions])
})
afterAll(async () => {
  for (const e of engines) await e.tools?.close()
  await tmp.remove()
})

const allowed = ['a.txt', 'b.txt', 'e.txt', 'notes.md', 'src/main.ts']

// Where ripgrep is not on PATH (CI machines may lack it) its cases are skipped.
describe.each(engines)('Grep leaves out what Read deny rules cover ($name engine)', (engine) => {
  const call = (input: Record<string, unknown>) => engine.tools!.call('Grep', input)

  it('lists only the files it may read, and counts only them', async (ctx) => {
    if (!engine.tools) return ctx.skip()
    const r = await call({ pattern: 'needle' })
    expect((r.result as { filenames: string[] }).filenames.slice().sort()).toEqual(allowed.map(p))
    expect(r.text).toMatch(/^Found 5 files\n/)
  })

  it('shows no line of a denied file, and no separator one leaves behind', async (ctx) => {
    if (!engine.tools) return ctx.skip()
    const r = await call({ pattern: 'needle', output_mode: 'content', '-C': 1 })
    expect(r.text).toBe([
      `${p('a.txt')}:1:needle a`, '--',
      `${p('b.txt')}-1-x`, `${p('b.txt')}:2:needle b`, `${p('b.txt')}-3-y`, '--',
      `${p('e.txt')}-1-x`, `${p('e.txt')}:2:needle e`, `${p('e.txt')}-3-y`, '--',
      `${p('notes.md')}:1:needle notes`, '--',
      `${p('src/main.ts')}:1:needle main`,
    ].join('\n'))
    const bare = await call({ pattern: 'needle', path: 'src', output_mode: 'content', '-n': false })
    expect(bare.text).toBe(`${p('src/main.ts')}:needle main`)
  })

  it('fills head_limit with lines it may show', async (ctx) => {
    if (!engine.tools) return ctx.skip()
    const r = await call({ pattern: 'needle', output_mode: 'content', head_limit: 2 })
    expect(r.text).toBe(`${p('a.txt')}:1:needle a\n${p('b.txt')}:2:needle b\n\n(Showing results 1-2; more follow: pass offset 2 to see them.)`)
  })

  it('counts matches in the files it may read only', async (ctx) => {
    if (!engine.tools) return ctx.skip()
    const r = await call({ pattern: 'needle', output_mode: 'count' })
    expect(r.text).toBe(`${allowed.map((f) => `${p(f)}:1`).join('\n')}\n\nFound 5 total occurrences across 5 files.`)
    expect(r.result).toMatchObject({ numFiles: 5, numMatches: 5 })
  })
})

describe('Glob leaves out what Read deny rules cover', () => {
  it('lists no denied file, and answers "No files found" when every match is denied', async () => {
    const tools = engines[0]!.tools!
    const md = await tools.call('Glob', { pattern: '**/*.md' })
    expect(md.text).toBe(p('notes.md'))
    expect(md.result).toMatchObject({ filenames: [p('notes.md')], numFiles: 1 })
    expect((await tools.call('Glob', { pattern: '**/.env' })).text).toBe('No files found')
    expect((await tools.call('Glob', { pattern: '*', path: 'src' })).text).toBe(p('src/main.ts'))
  })
})
