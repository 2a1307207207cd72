import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { hasTmux, project, tmuxSuite } from './suite.js'

const suite = tmuxSuite(import.meta.filename)
const open = suite.open
const server = () => suite.state.server!

describe.runIf(hasTmux)('keys typed before the terminal is up (tmux)', () => {
  it('a prompt typed ahead with Enter is sent, not left in the editor as two lines', async () => {
    const where = await project()
    const p = await open({ steps: [{ reply: 'typed ahead answer', expect: { lastUserText: 'early words' } }] }, where, {
      typeAhead: async (pane) => {
        await pane.type('early words')
        await pane.keys('Enter')
      },
    })
    await p.waitFor('typed ahead answer')
    expect(server().requests).toHaveLength(1)
  })

  it('typed-ahead text and Enter do not answer the trust question', async () => {
    const where = await project({ '.claude/settings.json': JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } }) })
    const p = await open([], where, {
      waitFor: 'Do you trust the files in',
      typeAhead: async (pane) => {
        await pane.type('yes please')
        await pane.keys('Enter')
      },
    })
    // The explanation is wrapped to the pane, not cut at its edge.
    await p.waitFor('once the session starts.')
    await p.keys('2')
    await p.waitFor('[exited 1]')
    expect((await p.history())).toContain('Not trusted')
    expect(existsSync(join(where.home, 'trusted.json'))).toBe(false)
  })
})
