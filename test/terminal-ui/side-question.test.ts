import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { hasTmux, project, tmuxSuite } from './suite.js'

const suite = tmuxSuite(import.meta.filename)
const body = (i: number) => JSON.stringify(suite.state.server!.requests[i]!.body.messages)

/** Submits `prompt`, and once its turn runs, asks the side question. */
async function askWhileRunning(p: Awaited<ReturnType<typeof suite.open>>, prompt: string): Promise<void> {
  await p.type(prompt)
  await p.keys('Enter')
  await p.waitFor('esc to interrupt')
  await p.type('/btw what did I ask for?')
  await p.keys('Enter')
}

describe.runIf(hasTmux)('/btw in the interactive terminal (tmux, 80x24)', () => {
  it('is asked at once while a turn runs, shows its answer above the prompt until Esc dismisses it, and leaves the turn and the history alone', async () => {
    const where = await project()
    const p = await suite.open({
      steps: [
        // The turn's response stops coming: the turn runs until it is interrupted.
        { reply: 'working on it for a long while', stallAfter: 2 },
        { when: { lastUserText: 'side question' }, reply: 'You asked me to **refactor** the parser.' },
        { reply: 'fine' },
      ],
    }, where)
    await askWhileRunning(p, 'refactor the parser')
    const shown = await p.waitFor('Space, Enter or Esc to dismiss')
    expect(shown).toMatch(/\/btw what did I ask for\?\n\s+You asked me to refactor the parser\./)
    // The turn is still running: the side question did not wait for it, nor end it.
    expect(shown).toContain('esc to interrupt')
    await p.keys('Escape')
    const dismissed = await p.waitFor((s) => !s.includes('Space, Enter or Esc to dismiss'))
    expect(dismissed).toContain('esc to interrupt')
    expect(dismissed).not.toContain('You asked me to')
    // Esc again, with nothing shown above the prompt, interrupts the turn.
    await p.keys('Escape')
    await p.waitFor((s) => !s.includes('esc to interrupt'))
    await p.type('go on')
    await p.keys('Enter')
    await p.waitFor('fine')
    expect(suite.state.server!.requests).toHaveLength(3)
    // Asked as the turn started, the side request may come before or after the turn's own.
    expect([body(0), body(1)].filter((b) => b.includes('what did I ask for?'))).toHaveLength(1)
    expect(body(2)).toContain('go on')
    expect(body(2)).not.toContain('what did I ask for')
    expect(body(2)).not.toContain('You asked me to')
  })

  it('asked while the prompt\'s UserPromptSubmit hook still runs, waits for the prompt to enter and asks about it', async () => {
    const where = await project()
    const go = join(where.cwd, 'go')
    await mkdir(join(where.home, '.claude'))
    // The hook holds the prompt until the test has asked the side question.
    const hooks = { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `while [ ! -e ${go} ]; do sleep 0.02; done` }] }] }
    await writeFile(join(where.home, '.claude/settings.json'), JSON.stringify({ hooks }))
    const p = await suite.open({
      steps: [
        { when: { lastUserText: 'side question' }, reply: 'You asked me to rename the module.' },
        { reply: 'renamed' },
      ],
    }, where)
    await askWhileRunning(p, 'rename the module')
    await p.waitFor('/btw what did I ask for?')
    await writeFile(go, '')
    const shown = await p.waitFor('Space, Enter or Esc to dismiss')
    expect(shown).toMatch(/\/btw what did I ask for\?\n\s+You asked me to rename the module\./)
    await p.waitFor('renamed')
    expect(body(0)).toContain('rename the module')
  })
})
