import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import memoryMod from '../../mods/memory/index.js'
import { runScript } from '../loop/helpers.js'
import { tempDir, texts, withOptions, writeTree } from './fixtures.js'

let root: string
let home: string
let project: string

beforeAll(async () => {
  root = await tempDir('memory-excludes')
  home = join(root, 'home')
  project = join(root, 'project')
  await writeTree(root, {
    'home/.claude/CLAUDE.md': 'User memory.\n',
    'managed/CLAUDE.md': 'Managed memory.\n',
    'project/.claude/settings.json': JSON.stringify({ claudeMdExcludes: ['**/project/vendor.md'] }),
    'project/CLAUDE.md': 'Project memory. @vendor.md @notes.md\n',
    'project/vendor.md': 'Vendor memory.\n',
    'project/notes.md': 'Notes memory.\n',
    'project/.claude/rules/style.md': 'Style rule.\n',
  })
})
afterAll(() => rm(root, { recursive: true, force: true }))

const filesIn = async (settings?: Record<string, unknown>) => {
  const mod = withOptions(memoryMod, { home, managedPath: join(root, 'managed/CLAUDE.md') })
  const run = await runScript([{ reply: 'ok' }], 'hi', { cwd: project, mods: [mod], ...(settings ? { settings } : {}) })
  return [...texts(run.requests[0]!.body, 0)[1]!.matchAll(/^Contents of (\S+) \(/gm)].map((m) => m[1]!.replace(`${root}/`, ''))
}

describe("the settings' claudeMdExcludes", () => {
  it('leaves out the memory files and imports its globs match, every source adding to the list; never the managed file', async () => {
    expect(await filesIn()).toEqual(['managed/CLAUDE.md', 'home/.claude/CLAUDE.md', 'project/CLAUDE.md', 'project/notes.md', 'project/.claude/rules/style.md'])
    expect(await filesIn({ claudeMdExcludes: [`${home}/.claude/CLAUDE.md`, '**/rules/*.md', '**/managed/CLAUDE.md'] }))
      .toEqual(['managed/CLAUDE.md', 'project/CLAUDE.md', 'project/notes.md'])
  })
})

describe("claudeMdExcludes in the user's settings of a query with its own HOME", () => {
  it('is read from that HOME, where the user CLAUDE.md is found', async () => {
    const own = join(root, 'own-home')
    await writeTree(own, { '.claude/CLAUDE.md': 'Own user memory.\n', '.claude/settings.json': JSON.stringify({ claudeMdExcludes: ['**/project/notes.md'] }) })
    const mod = withOptions(memoryMod, { managedPath: false })
    const run = await runScript([{ reply: 'ok' }], 'hi', { cwd: project, mods: [mod], env: { HOME: own, CLAUDE_CONFIG_DIR: '' } })
    const files = [...texts(run.requests[0]!.body, 0)[1]!.matchAll(/^Contents of (\S+) \(/gm)].map((m) => m[1]!.replace(`${root}/`, ''))
    expect(files).toEqual(['own-home/.claude/CLAUDE.md', 'project/CLAUDE.md', 'project/.claude/rules/style.md'])
  })
})
