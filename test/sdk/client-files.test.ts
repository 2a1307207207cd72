import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import outputStylesMod from '../../mods/output-styles/index.js'
import permissionsMod from '../../mods/permissions/index.js'
import { conversation } from './conversation.js'
import { systemText } from '../helpers/system-text.js'
import { tempDir, withOptions, writeTree } from '../context/fixtures.js'

// Query.readFile, Query.seedReadState and Query.reloadOutputStyles, through a real session.

let root: string
let cwd: string
beforeAll(async () => {
  root = await tempDir('client-files')
  cwd = join(root, 'project')
  await writeTree(root, {
    'project/notes.txt': 'first line\nsecond line\n',
    'project/secret.key': 'hunter2\n',
    'project/big.txt': 'x'.repeat(3000),
    'project/sub/': '',
    'project/.claude/settings.json': JSON.stringify({ permissions: { deny: ['Read(./secret.key)'] } }),
    'project/.claude/output-styles/terse.md': '---\nname: terse\n---\nOne line only.\n',
    'project/.claude/settings.local.json': JSON.stringify({ outputStyle: 'terse' }),
    'outside/elsewhere.txt': 'not in the project\n',
    'home/': '',
  })
  writeFileSync(join(cwd, 'bytes.bin'), Buffer.from([0x68, 0x69, 0xff, 0x00]))
})
afterAll(() => rm(root, { recursive: true, force: true }))

const permissions = () => withOptions(permissionsMod, { home: join(root, 'home'), managedDir: false })
const edit = (id: string, file: string) => ({ reply: [{ tool_use: { id, name: 'Edit', input: { file_path: join(cwd, file), old_string: 'first line', new_string: 'line one' } } }] })
const resultOf = (body: any, id: string) => body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])).find((b: any) => b.type === 'tool_result' && b.tool_use_id === id)

describe('Query.readFile', () => {
  it('reads a file of the session as Read may, relative to the cwd or absolute, capped and encoded as asked; null where Read would be refused', async () => {
    const c = await conversation([], { cwd, mods: ['read', permissions()], trustWorkspace: true })
    try {
      expect(await c.q.readFile('notes.txt')).toEqual({ contents: 'first line\nsecond line\n', absPath: join(cwd, 'notes.txt'), lossy: false })
      expect(await c.q.readFile(join(cwd, 'notes.txt'), { maxBytes: 5 })).toEqual({ contents: 'first', absPath: join(cwd, 'notes.txt'), lossy: false, truncated: true })
      expect(await c.q.readFile('big.txt')).toMatchObject({ contents: 'x'.repeat(3000), lossy: false })
      expect(await c.q.readFile('bytes.bin', { encoding: 'base64' })).toEqual({ contents: 'aGn/AA==', absPath: join(cwd, 'bytes.bin'), encoding: 'base64' })
      expect(await c.q.readFile('bytes.bin')).toMatchObject({ contents: 'hi\uFFFD\u0000', lossy: true })
      // A deny rule, a path outside the working directories (Read would ask), a missing file, a directory.
      expect(await c.q.readFile('secret.key')).toBeNull()
      expect(await c.q.readFile(join(root, 'outside', 'elsewhere.txt'))).toBeNull()
      expect(await c.q.readFile('missing.txt')).toBeNull()
      expect(await c.q.readFile('sub')).toBeNull()
      await expect(c.q.readFile('notes.txt', { maxBytes: 0 })).rejects.toThrow('readFile: maxBytes:')
      await expect(c.q.readFile('notes.txt', { encoding: 'latin1' as 'utf-8' })).rejects.toThrow('readFile: encoding:')
    } finally {
      await c.end()
    }
  })

  it('without the permissions mod the working directories fence it; without the read mod it rejects, saying so', async () => {
    const fenced = await conversation([], { cwd, mods: ['read'] })
    try {
      expect(await fenced.q.readFile('secret.key')).toMatchObject({ contents: 'hunter2\n' })
      expect(await fenced.q.readFile(join(root, 'outside', 'elsewhere.txt'))).toBeNull()
    } finally {
      await fenced.end()
    }
    const none = await conversation([], { cwd, mods: [] })
    try {
      await expect(none.q.readFile('notes.txt')).rejects.toThrow('Query.readFile: no loaded mod provides "fileAccess"')
    } finally {
      await none.end()
    }
  })
})

describe('Query.seedReadState', () => {
  it('lets Edit change a file whose Read the application saw; a seed older than the file is skipped and Edit asks for a Read', async () => {
    await writeTree(root, { 'project/seeded.txt': 'first line\n', 'project/stale.txt': 'first line\n' })
    const seen = statSync(join(cwd, 'stale.txt'))
    // The file changes after the application's Read: its mtime moves past the one seeded.
    utimesSync(join(cwd, 'stale.txt'), seen.atime, new Date(seen.mtimeMs + 5000))
    // A model Claude Code holds to read a file before changing it.
    const c = await conversation([edit('toolu_1', 'seeded.txt'), { reply: 'one' }, edit('toolu_2', 'stale.txt'), { reply: 'two' }], {
      cwd, mods: ['read', 'edit', permissions()], trustWorkspace: true, permissionMode: 'acceptEdits', model: 'claude-sonnet-4-5',
    })
    try {
      await c.q.seedReadState('seeded.txt', Math.floor(statSync(join(cwd, 'seeded.txt')).mtimeMs))
      await c.q.seedReadState(join(cwd, 'stale.txt'), Math.floor(seen.mtimeMs))
      // Nothing to seed: no error, as in Claude Code.
      await c.q.seedReadState('missing.txt', 0)
      await expect(c.q.seedReadState('seeded.txt', Number.NaN)).rejects.toThrow('seedReadState: mtime:')
      await c.say('edit it')
      await c.say('edit the other')
    } finally {
      await c.end()
    }
    expect(resultOf(c.server.requests[1]!.body, 'toolu_1')).not.toMatchObject({ is_error: true })
    expect(JSON.stringify(resultOf(c.server.requests[3]!.body, 'toolu_2'))).toContain('has not been read in this session')
    expect(readFileSync(join(cwd, 'seeded.txt'), 'utf8')).toBe('line one\n')
    expect(readFileSync(join(cwd, 'stale.txt'), 'utf8')).toBe('first line\n')
  })
})

describe('Query.reloadOutputStyles', () => {
  it('lists a style written while the session runs; the style in force stays; init lists the styles to choose from', async () => {
    const dir = join(root, 'styles-project')
    await writeTree(dir, {
      '.claude/output-styles/terse.md': '---\nname: terse\n---\nOne line only.\n',
      '.claude/settings.local.json': JSON.stringify({ outputStyle: 'terse' }),
    })
    const styles = withOptions(outputStylesMod, { home: join(root, 'home'), managedDir: false })
    const c = await conversation([{ reply: 'one' }, { reply: 'two' }], { cwd: dir, mods: [styles] })
    try {
      await c.say('hi')
      expect((await c.q.initializationResult()).available_output_styles).toEqual(['default', 'terse'])
      await writeTree(dir, { '.claude/output-styles/formal.md': '---\nname: formal\ndescription: Formal prose\n---\nWrite formally.\n' })
      expect(await c.q.reloadOutputStyles()).toEqual({ available_output_styles: ['default', 'formal', 'terse'] })
      expect((await c.q.initializationResult()).output_style).toBe('terse')
      await c.say('again')
    } finally {
      await c.end()
    }
    expect(systemText(c.server.requests[1]!.body as any)).toContain('One line only.')
    expect(systemText(c.server.requests[1]!.body as any)).not.toContain('Write formally.')
  })

  it('without the output-styles mod it rejects, saying so', async () => {
    const c = await conversation([], { cwd, mods: [] })
    try {
      await expect(c.q.reloadOutputStyles()).rejects.toThrow('Query.reloadOutputStyles: no loaded mod provides "outputStyleList"')
    } finally {
      await c.end()
    }
  })
})
