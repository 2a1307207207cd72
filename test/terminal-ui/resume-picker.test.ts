import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { hasTmux, project, send, tmuxSuite, type Where } from './suite.js'

const suite = tmuxSuite(import.meta.filename)
const server = () => suite.state.server!

// An earlier session of the project, made by `modloop -p` in the same home.
async function earlier(where: Where, prompt: string): Promise<void> {
  const r = await runCli(['-p', prompt], { script: [{ reply: 'noted' }], cwd: where.cwd, env: { HOME: where.home, MODLOOP_HOME: where.home }, stdin: '' })
  expect(r.code).toBe(0)
}

describe.runIf(hasTmux)('modloop --resume with no id (tmux, 80x24)', () => {
  it('opens the session picker at launch, and the picked session goes on', async () => {
    const where = await project()
    await earlier(where, 'remember the word heron')
    const p = await suite.open({ steps: [{ reply: 'it was heron', expect: { lastUserText: 'what was the word?' } }] }, where, { args: ['--resume'], waitFor: 'Resume which session?' })
    expect(await p.waitFor('remember the word heron')).toMatch(/remember the word heron · 1 turn · /)
    await p.keys('Enter')
    await p.waitFor('Resumed session')
    await send(p, 'what was the word?')
    await p.waitFor('it was heron')
    expect(JSON.stringify(server().requests.at(-1)!.body.messages)).toContain('remember the word heron')
    await p.keys('C-c')
    await p.keys('C-c')
    await p.waitFor('[exited 0]')
  })

  it('-r with nothing to pick from starts a new session, saying so', async () => {
    const where = await project()
    const p = await suite.open({ steps: [{ reply: 'fresh answer' }] }, where, { args: ['-r'] })
    await p.waitFor('--resume: this directory has no session yet; starting a new one')
    await send(p, 'hello')
    await p.waitFor('fresh answer')
    expect(server().requests.at(-1)!.body.messages).toHaveLength(1)
    await p.keys('C-c')
    await p.keys('C-c')
    await p.waitFor('[exited 0]')
  })
})

describe('-p --resume with no id', () => {
  it('is refused before anything starts, as Claude Code refuses it with --print', async () => {
    const where = await project()
    for (const args of [['-p', 'hi', '--resume'], ['-p', '-r', '--model', 'x', 'hi']]) {
      const r = await runCli(args, { script: [], cwd: where.cwd, env: { HOME: where.home, MODLOOP_HOME: where.home }, stdin: '' })
      expect(r.code).toBe(1)
      expect(r.err).toContain('--resume requires a valid session ID or session title when used with --print. Usage: modloop -p --resume <session-id|title>')
      expect(r.requests).toHaveLength(0)
    }
  })
})
