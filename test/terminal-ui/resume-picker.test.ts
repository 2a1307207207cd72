import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { resumeSearch } from '../../cli/resume-search.js'
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

  it('--resume with a text that names no session opens the picker searching for it, as Claude Code does; the picked one goes on', async () => {
    const where = await project()
    await earlier(where, 'remember the word heron')
    await earlier(where, 'remember the word otter')
    const p = await suite.open({ steps: [{ reply: 'it was otter', expect: { lastUserText: 'which word?' } }] }, where, { args: ['--resume', 'OTTER'], waitFor: 'Resume which session?' })
    const screen = await p.waitFor('Search: OTTER')
    expect(screen).toMatch(/1\. remember the word otter · 1 turn · /)
    expect(screen).not.toContain('heron')
    await p.keys('Enter')
    await p.waitFor('Resumed session')
    await send(p, 'which word?')
    await p.waitFor('it was otter')
    const sent = JSON.stringify(server().requests.at(-1)!.body.messages)
    expect(sent).toContain('remember the word otter')
    expect(sent).not.toContain('heron')
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

describe('--resume <text>: a search, or a session', () => {
  it('is a search only when it is no session ID and no session\'s title (any case)', async () => {
    const where = await project()
    const env = { HOME: where.home, MODLOOP_HOME: where.home }
    const r = await runCli(['-p', 'remember the word heron', '--name', 'Bird Words'], { script: [{ reply: 'noted' }], cwd: where.cwd, env, stdin: '' })
    expect(r.code).toBe(0)
    expect(await resumeSearch('heron', where.cwd, env)).toBe('heron')
    expect(await resumeSearch('bird words', where.cwd, env)).toBeUndefined()
    // An ID is resumed by (or refused, not found), never searched for.
    expect(await resumeSearch('6f1d7b0e-1111-4222-8333-944455556666', where.cwd, env)).toBeUndefined()
  })

  it('with -p, a text that names no session is refused with Claude Code\'s --print message, exit 1, before any request', async () => {
    const where = await project()
    const r = await runCli(['-p', 'hi', '--resume', 'heron'], { script: [], cwd: where.cwd, env: { HOME: where.home, MODLOOP_HOME: where.home }, stdin: '' })
    expect(r.code).toBe(1)
    expect(r.err).toContain(`modloop: --resume requires a valid session ID or session title when used with --print. Usage: modloop -p --resume <session-id|title> (not a session ID (a UUID), nor the title of a session of ${where.cwd}: "heron")`)
    expect(r.requests).toHaveLength(0)
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
