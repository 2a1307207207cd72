import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import grep from '../../mods/grep/index.js'
import { findExecutable } from '../../mods/grep/find-executable.js'
import { openTools, tempDir, type Tools } from './harness.js'

// Git's ignore rules count inside a git repository only, and all of them: .gitignore,
// .git/info/exclude and the user's global excludes, as ripgrep (and so Claude Code's Grep) reads them.
let tmp: Awaited<ReturnType<typeof tempDir>>
const engines: [string, Tools][] = []
const saved = process.env.XDG_CONFIG_HOME

async function put(name: string, content: string): Promise<void> {
  await mkdir(dirname(join(tmp.dir, name)), { recursive: true })
  await writeFile(join(tmp.dir, name), content)
}

beforeAll(async () => {
  tmp = await tempDir()
  for (const tree of ['plain', 'repo']) {
    await put(`${tree}/.gitignore`, 'by-gitignore.txt\n')
    await put(`${tree}/.ignore`, 'by-ignore.txt\n')
    for (const name of ['by-gitignore.txt', 'by-ignore.txt', 'by-exclude.txt', 'by-global.txt', 'kept.txt']) await put(`${tree}/${name}`, 'needle\n')
  }
  await put('repo/.git/HEAD', 'ref: refs/heads/main\n')
  await put('repo/.git/info/exclude', 'by-exclude.txt\n')
  await put('config/git/ignore', 'by-global.txt\n')
  process.env.XDG_CONFIG_HOME = join(tmp.dir, 'config')
  engines.push(['js', await openTools(tmp.dir, [[grep, { engine: 'js' }]])])
  if (await findExecutable('rg')) engines.push(['rg', await openTools(tmp.dir, [[grep, { engine: 'rg' }]])])
})
afterAll(async () => {
  if (saved === undefined) delete process.env.XDG_CONFIG_HOME
  else process.env.XDG_CONFIG_HOME = saved
  for (const [, tools] of engines) await tools.close()
  await tmp.remove()
})

const found = async (tools: Tools, path: string) => ((await tools.call('Grep', { pattern: 'needle', path })).result as { filenames: string[] }).filenames.map((f) => f.slice(f.lastIndexOf('/') + 1)).sort()

describe('Grep and git ignore rules', () => {
  it('outside a git repository, honours .ignore but not .gitignore or git excludes', async () => {
    for (const [, tools] of engines) expect(await found(tools, 'plain')).toEqual(['by-exclude.txt', 'by-gitignore.txt', 'by-global.txt', 'kept.txt'])
  })

  it('inside one, honours .gitignore, .git/info/exclude and the global excludes file', async () => {
    for (const [, tools] of engines) expect(await found(tools, 'repo')).toEqual(['kept.txt'])
  })
})
