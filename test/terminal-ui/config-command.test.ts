import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { hasTmux, project, tmuxSuite } from './suite.js'

const suite = tmuxSuite(import.meta.filename)

describe.runIf(hasTmux)('/config in the interactive terminal (tmux, 80x24)', () => {
  it('opens the settings panel; Enter flips Auto-compact in ~/.claude.json, Esc closes it, and the next prompt goes to the model', async () => {
    const where = await project()
    const p = await suite.open([{ reply: 'fine' }], where)
    await p.type('/config')
    await p.keys('Enter')
    const shown = await p.waitFor('Enter changes the highlighted setting')
    expect(shown).toMatch(/❯ 1\. Auto-compact +true/)
    expect(shown).toMatch(/Default permission mode +default/)
    await p.keys('Enter')
    const flipped = await p.waitFor(/❯ 1\. Auto-compact +false/)
    expect(flipped).toContain('Set Auto-compact (autoCompactEnabled) to false in')
    expect(JSON.parse(await readFile(join(where.home, '.claude.json'), 'utf8'))).toMatchObject({ autoCompactEnabled: false })
    await p.keys('Escape')
    await p.waitFor((s) => !s.includes('Enter changes the highlighted setting'))
    await p.type('hello')
    await p.keys('Enter')
    await p.waitFor('fine')
    expect(suite.state.server!.requests).toHaveLength(1)
  })
})
