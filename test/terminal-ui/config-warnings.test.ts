import { describe, expect, it } from 'vitest'
import { hasTmux, project, tmuxSuite } from './suite.js'

const suite = tmuxSuite(import.meta.filename)

describe.runIf(hasTmux)('the config in the terminal (tmux)', () => {
  it('what loaded but looks wrong in the config is shown, as -p shows it', async () => {
    const config = { extends: 'modloop', mods: [['bash', { timeotMs: 5 }], { name: 'compactoin', enabled: false }] }
    const where = await project({ 'modloop.config.json': JSON.stringify(config) })
    // A config of its own makes the terminal ask to trust the folder first.
    const p = await suite.open([], where, { waitFor: 'trust this folder' })
    await p.keys('Enter')
    // The pane is 80 columns wide: a long line wraps anywhere, so the screen is read joined.
    const screen = await p.waitForText('so it does nothing')
    expect(screen).toContain('the mods entry { "name": "compactoin", "enabled": false } names no known mod')
    expect(screen).toContain('bash: option "timeotMs" is not among its options')
  })
})
