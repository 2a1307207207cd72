import { describe, expect, it } from 'vitest'
import { hasTmux, project, send, tmuxSuite } from './suite.js'

const suite = tmuxSuite(import.meta.filename)

describe.runIf(hasTmux)('minimal mode in the interactive terminal (tmux)', () => {
  it('--bare starts the terminal with the minimal distribution: Bash, Edit and Read, no CLAUDE.md', async () => {
    const where = await project({ 'CLAUDE.md': 'Remember PINEAPPLE\n' })
    const p = await suite.open({ steps: [{ reply: 'answered' }] }, where, { args: ['--bare', '--trust-workspace'] })
    await send(p, 'hi')
    await p.waitFor('answered')
    const body = suite.state.server!.requests[0]!.body as { tools: { name: string }[]; messages: unknown[] }
    expect(body.tools.map((t) => t.name)).toEqual(['Bash', 'Edit', 'Read'])
    expect(JSON.stringify(body.messages)).not.toContain('PINEAPPLE')
  })
})
