import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { lockPathOf, transcriptPath } from '../../mods/transcripts/store/paths.js'
import { hasTmux, project, send, tmuxSuite } from './suite.js'

const suite = tmuxSuite(import.meta.filename)
const open = suite.open
const server = () => suite.state.server!

describe.runIf(hasTmux)('sessions in the terminal (tmux)', () => {
  it('--resume of an unknown session shows the error and exits 1', async () => {
    const where = await project()
    const p = await open([], where, { args: ['--resume', '6f1d7b0e-1111-4222-8333-944455556666'], waitFor: '[exited' })
    const screen = await p.waitFor('[exited 1]')
    expect(screen.replace(/\n/g, '')).toContain('No conversation found with session ID: 6f1d7b0e-1111-4222-8333-944455556666')
  })

  it('leaving a session that took a prompt says how to resume it', async () => {
    const where = await project()
    const p = await open({ steps: [{ reply: 'an answer' }] }, where)
    await send(p, 'keep this')
    await p.waitFor('an answer')
    await p.keys('C-d')
    const screen = (await p.waitFor('[exited 0]')).replace(/\n/g, '')
    const { listSessions } = await import('../../mods/transcripts/store/list.js')
    const [session] = await listSessions({ cwd: where.cwd, env: { MODLOOP_HOME: where.home } })
    expect(screen).toContain(`Resume this session with:modloop --resume ${session!.sessionId}`)
  })

  it('the resume hint repeats the launch options, but not the session\'s own, as Claude Code\'s does', async () => {
    const where = await project()
    const p = await open({ steps: [{ reply: 'an answer' }] }, where, { args: ['--model', 'claude-opus-4-5', '--permission-mode', 'acceptEdits', '--session-id', '0b8a7c6d-1111-4222-8333-944455556666'] })
    await send(p, 'keep this')
    await p.waitFor('an answer')
    await p.keys('C-d')
    const screen = (await p.waitFor('[exited 0]')).replace(/\n/g, '')
    expect(screen).toContain('Resume this session with:modloop --model claude-opus-4-5 --permission-mode acceptEdits --resume 0b8a7c6d-1111-4222-8333-944455556666')
  })

  it('a /resume of a session another process writes shows why and stays in the current session', async () => {
    const where = await project()
    let p = await open({ steps: [{ reply: 'first answer' }] }, where)
    await send(p, 'the first session')
    await p.waitFor('first answer')
    await p.keys('C-d')
    await p.waitFor('[exited 0]')
    const first = JSON.stringify(server().requests[0]!.body)
    expect(first).toContain('the first session')

    p = await open({ steps: [{ reply: 'second answer' }, { reply: 'third answer', expect: { lastUserText: 'still here?' } }] }, where)
    await send(p, 'hello there')
    await p.waitFor('second answer')
    // The first session is taken by a live process of someone else.
    const env = { MODLOOP_HOME: where.home }
    const { listSessions } = await import('../../mods/transcripts/store/list.js')
    const firstId = (await listSessions({ cwd: where.cwd, env })).find((s) => s.firstPrompt === 'the first session')!.sessionId
    const holder = spawn('sleep', ['60'], { stdio: 'ignore' })
    try {
      writeFileSync(lockPathOf(transcriptPath(where.cwd, firstId, env)), String(holder.pid))
      await send(p, `/resume ${firstId}`)
      // The message names the lock file, whose path is as long as the temporary directory's.
      await p.waitForText(`in use by process ${holder.pid}`)
      await p.waitForText('staying in this session')
      await send(p, 'still here?')
      await p.waitFor('third answer')
      const messages = JSON.stringify(server().requests.at(-1)!.body.messages)
      expect(messages).toContain('hello there')
      expect(messages).not.toContain('the first session')
      expect(await p.capture()).not.toContain('[exited')
    } finally {
      holder.kill()
    }
  })

  it('the status line shows the context the last request used, none after /clear; a resumed session shows the cost it carried at once', async () => {
    const where = await project()
    // A model of a 200k window and known prices: the figures below are its.
    let p = await open({ steps: [{ reply: 'big answer', usage: { input_tokens: 100_000, output_tokens: 10 } }] }, where, { args: ['--model', 'claude-sonnet-4-5'] })
    await send(p, 'fill the context')
    await p.waitFor('big answer')
    await p.waitFor('$0.3001 · 50% context')
    // /clear starts a conversation that holds nothing yet, its cost from zero.
    await send(p, '/clear')
    await p.waitFor('Started a new conversation')
    await p.waitFor('$0.0000 · 0% context')
    await p.keys('C-d')
    await p.waitFor('[exited 0]')

    p = await open([], where, { args: ['-c'] })
    await p.waitFor('Resumed session')
    await p.waitFor('$0.3001')
  })
})
