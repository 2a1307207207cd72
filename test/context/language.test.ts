import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import outputStylesMod from '../../mods/output-styles/index.js'
import { runScript } from '../loop/helpers.js'
import { systemText } from '../helpers/system-text.js'
import { tempDir, withOptions, writeTree } from './fixtures.js'

let home: string
let project: string

beforeAll(async () => {
  home = await tempDir('language-home')
  project = await tempDir('language-project')
  await writeTree(home, { '.claude/settings.json': JSON.stringify({ language: ' French ' }) })
})
afterAll(async () => {
  await rm(home, { recursive: true, force: true })
  await rm(project, { recursive: true, force: true })
})

const system = async (settings?: Record<string, unknown>) => {
  const run = await runScript([{ reply: 'ok' }], 'hi', { cwd: project, mods: [withOptions(outputStylesMod, { home })], ...(settings ? { settings } : {}) })
  return systemText(run.requests[0]!.body)
}

describe('the settings\' language', () => {
  it('asks the model to answer in it; a later source names another', async () => {
    expect(await system()).toContain('# Language\nAnswer in French: explanations, code comments and every message to the user.')
    const later = await system({ language: 'Japanese' })
    expect(later).toContain('Answer in Japanese:')
    expect(later).not.toContain('French')
  })

  it('an empty value in a later source leaves no section', async () => {
    expect(await system({ language: '' })).not.toContain('# Language')
  })
})

describe("the user's settings of a query with its own HOME", () => {
  it('are read from that HOME, as the output styles beside them are', async () => {
    const run = await runScript([{ reply: 'ok' }], 'hi', { cwd: project, mods: [outputStylesMod], env: { HOME: home, CLAUDE_CONFIG_DIR: '' } })
    expect(systemText(run.requests[0]!.body)).toContain('Answer in French:')
  })
})
