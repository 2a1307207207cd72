import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import glob from '../../mods/glob/index.js'
import { openTools, tempDir, type Tools } from './harness.js'

// CLAUDE_CODE_GLOB_HIDDEN and CLAUDE_CODE_GLOB_NO_IGNORE, as Claude Code's Glob (a ripgrep file walk
// with the pattern as its --glob) reads them: both on unless set to something other than 1/true/yes/on.
let tmp: Awaited<ReturnType<typeof tempDir>>
const saved = process.env.XDG_CONFIG_HOME
const opened: Tools[] = []

async function put(name: string, content = 'x'): Promise<void> {
  await mkdir(dirname(join(tmp.dir, name)), { recursive: true })
  await writeFile(join(tmp.dir, name), content)
}

async function open(env: Record<string, string>): Promise<Tools> {
  const tools = await openTools(tmp.dir, [glob], env)
  opened.push(tools)
  return tools
}

async function found(env: Record<string, string>, pattern: string, path?: string): Promise<string[]> {
  const tools = await open(env)
  const r = await tools.call('Glob', { pattern, ...(path ? { path } : {}) })
  return ((r.result as { filenames: string[] }).filenames).map((f) => f.slice(tmp.dir.length + 1)).sort()
}

beforeAll(async () => {
  tmp = await tempDir()
  for (const tree of ['plain', 'repo']) {
    await put(`${tree}/.gitignore`, 'by-gitignore/\n*.log\nsub/inner/\n')
    await put(`${tree}/.ignore`, 'by-ignore/\n')
    await put(`${tree}/.rgignore`, 'by-rgignore/\n')
    for (const d of ['by-gitignore', 'by-ignore', 'by-rgignore', 'by-exclude', 'by-global', 'kept', 'sub/inner']) await put(`${tree}/${d}/f.txt`)
    await put(`${tree}/kept/k.log`)
  }
  await put('repo/.git/HEAD', 'ref: refs/heads/main\n')
  await put('repo/.git/info/exclude', 'by-exclude/\n')
  await put('config/git/ignore', 'by-global/\n')
  process.env.XDG_CONFIG_HOME = join(tmp.dir, 'config')
  for (const name of ['.hid/b.txt', '.d.txt', 'sub/.e.txt', 'sub/.deep/f.txt', 'a.txt', '.github/workflows/ci.yml']) await put(`hidden/${name}`)
})
afterAll(async () => {
  if (saved === undefined) delete process.env.XDG_CONFIG_HOME
  else process.env.XDG_CONFIG_HOME = saved
  for (const tools of opened) await tools.close()
  await tmp.remove()
})

describe('CLAUDE_CODE_GLOB_NO_IGNORE', () => {
  it('unset, empty or 1/true/yes/on: ignore files are not applied', async () => {
    for (const value of [undefined, '', '1', 'true', 'YES', 'on']) {
      expect(await found(value === undefined ? {} : { CLAUDE_CODE_GLOB_NO_IGNORE: value }, '**/*.txt', 'repo')).toHaveLength(7)
    }
  })

  it('anything else, in a git repository: .gitignore, .ignore, .rgignore, .git/info/exclude and the global excludes skip directories, a root-anchored rule too', async () => {
    for (const value of ['0', 'false', 'off', 'abc']) {
      expect(await found({ CLAUDE_CODE_GLOB_NO_IGNORE: value }, '**/*.txt', 'repo')).toEqual(['repo/kept/f.txt'])
    }
  })

  it('outside a git repository only .ignore and .rgignore count', async () => {
    expect(await found({ CLAUDE_CODE_GLOB_NO_IGNORE: '0' }, '**/*.txt', 'plain')).toEqual(['plain/by-exclude/f.txt', 'plain/by-gitignore/f.txt', 'plain/by-global/f.txt', 'plain/kept/f.txt', 'plain/sub/inner/f.txt'])
  })

  it('a parent directory\'s rules apply below it; a file the pattern matches is listed though ignored; a directory it matches is entered', async () => {
    expect(await found({ CLAUDE_CODE_GLOB_NO_IGNORE: '0' }, '**/*.txt', 'repo/sub')).toEqual([])
    expect(await found({ CLAUDE_CODE_GLOB_NO_IGNORE: '0' }, '*.log', 'repo')).toEqual(['repo/kept/k.log'])
    expect(await found({ CLAUDE_CODE_GLOB_NO_IGNORE: '0' }, '**/*', 'repo')).toContain('repo/by-gitignore/f.txt')
  })
})

describe('Glob\'s description', () => {
  it('says what the switches search', async () => {
    expect((await open({})).session.tools.get('Glob')!.description).toContain('hidden files are included.\n- .gitignore is not applied')
    const off = (await open({ CLAUDE_CODE_GLOB_HIDDEN: '0', CLAUDE_CODE_GLOB_NO_IGNORE: '0' })).session.tools.get('Glob')!.description
    expect(off).toContain('hidden directories only where the pattern matches the directory itself')
    expect(off).toContain('Directories that .gitignore, .ignore or .rgignore exclude are skipped')
  })
})

describe('CLAUDE_CODE_GLOB_HIDDEN', () => {
  const all = ['hidden/.d.txt', 'hidden/.hid/b.txt', 'hidden/a.txt', 'hidden/sub/.deep/f.txt', 'hidden/sub/.e.txt']

  it('unset or on: hidden directories are searched', async () => {
    expect(await found({}, '**/*.txt', 'hidden')).toEqual(all)
    expect(await found({ CLAUDE_CODE_GLOB_HIDDEN: 'true' }, '**/*.txt', 'hidden')).toEqual(all)
  })

  it('off: hidden directories at any depth are skipped, hidden files kept', async () => {
    for (const value of ['0', 'false', ' ']) {
      expect(await found({ CLAUDE_CODE_GLOB_HIDDEN: value }, '**/*.txt', 'hidden')).toEqual(['hidden/.d.txt', 'hidden/a.txt', 'hidden/sub/.e.txt'])
    }
  })

  it('off: a pattern naming a path inside a hidden directory finds nothing, one matching the directory itself ("**") enters it', async () => {
    expect(await found({ CLAUDE_CODE_GLOB_HIDDEN: '0' }, '.github/**', 'hidden')).toEqual([])
    expect(await found({ CLAUDE_CODE_GLOB_HIDDEN: '0' }, '*.yml', 'hidden')).toEqual([])
    expect(await found({ CLAUDE_CODE_GLOB_HIDDEN: '0' }, '**', 'hidden')).toEqual([...all, 'hidden/.github/workflows/ci.yml'].sort())
  })
})
