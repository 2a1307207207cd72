import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import outputStylesMod from '../../mods/output-styles/index.js'
import { runScript } from '../loop/helpers.js'
import { systemText } from '../helpers/system-text.js'
import { tempDir, withOptions, writeTree } from './fixtures.js'

let root: string

beforeAll(async () => {
  root = await tempDir('style-policy')
  await writeTree(root, {
    'project/.claude/output-styles/terse.md': '---\nname: terse\n---\nOne line only.\n',
    'project/.claude/output-styles/formal.md': '---\nname: formal\n---\nWrite formally.\n',
    'project/.claude/settings.local.json': JSON.stringify({ outputStyle: 'terse' }),
    'managed/managed-settings.json': JSON.stringify({ outputStyle: 'formal' }),
  })
})
afterAll(() => rm(root, { recursive: true, force: true }))

describe('outputStyle in managed policy', () => {
  it('wins over the project, local and --settings files, as in Claude Code', async () => {
    const styles = withOptions(outputStylesMod, { home: join(root, 'home'), managedDir: join(root, 'managed') })
    const run = await runScript([{ reply: 'ok' }], 'hi', { cwd: join(root, 'project'), mods: [styles], settings: { outputStyle: 'terse' } })
    const system = systemText(run.requests[0]!.body)
    expect(system).toContain('# Output style: formal\n\nWrite formally.')
    expect(system).not.toContain('One line only.')
  })
})
