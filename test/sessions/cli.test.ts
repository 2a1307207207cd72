import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { tempCwd } from './helpers.js'

let cwd: string
beforeAll(async () => {
  cwd = await tempCwd()
  await writeFile(join(cwd, 'modloop.config.json'), JSON.stringify({ mods: ['transcripts'] }))
})

const cli = (args: string[], script: unknown = []) => runCli(args, { script, cwd, env: { MODLOOP_HOME: process.env.MODLOOP_HOME } })

describe('modloop sessions and the resume flags', () => {
  it('-p, then --resume, --continue, --fork-session and --session-id; sessions list and show', async () => {
    const first = await cli(['-p', 'what is in the first prompt', '--output-format', 'json'], [{ reply: 'first answer' }])
    expect(first.code).toBe(0)
    const id = JSON.parse(first.out).session_id as string

    const resumed = await cli(['-p', 'second', '--resume', id, '--output-format', 'json'], [{ reply: 'second answer' }])
    expect(JSON.parse(resumed.out).session_id).toBe(id)
    expect((resumed.requests[0]!.body as any).messages.map((m: any) => m.content[0].text)).toEqual(['what is in the first prompt', 'first answer', 'second'])

    const continued = await cli(['-p', 'third', '-c', '--output-format', 'json'], [{ reply: 'third answer' }])
    expect(JSON.parse(continued.out).session_id).toBe(id)

    const fixed = '2c1f0e9d-8b7a-4654-9321-0fedcba98765'
    const forked = await cli(['-p', 'fourth', '--resume', id, '--fork-session', '--session-id', fixed, '--output-format', 'json'], [{ reply: 'forked' }])
    expect(JSON.parse(forked.out).session_id).toBe(fixed)
    expect((forked.requests[0]!.body as any).messages).toHaveLength(7)

    const list = await cli(['sessions', 'list', '--json'])
    const sessions = JSON.parse(list.out)
    expect(sessions.map((s: any) => s.sessionId)).toEqual([fixed, id])
    expect(sessions[1]).toMatchObject({ title: 'what is in the first prompt', firstPrompt: 'what is in the first prompt', turns: 3, messages: 6 })
    expect(sessions[0].turns).toBe(4)

    const table = await cli(['sessions', 'list'])
    expect(table.out.split('\n')[0]).toMatch(/^ID\s+LAST ACTIVITY\s+TURNS\s+TITLE\s+FIRST PROMPT$/)
    expect(table.out).toContain(`${id}  `)

    const show = await cli(['sessions', 'show', id])
    expect(show.code).toBe(0)
    expect(show.out).toContain('> what is in the first prompt')
    expect(show.out).toContain('first answer')
    expect(show.out).toMatch(/— success · 1 model turns · \$\d+\.\d{4}/)
  })

  it('clear errors: an unknown session, flags that do not go together', async () => {
    const unknown = await cli(['-p', 'x', '--resume', '6f1d7b0e-1111-4222-8333-944455556666'])
    expect(unknown).toMatchObject({ code: 1 })
    expect(unknown.err).toContain('No conversation found with session ID: 6f1d7b0e-1111-4222-8333-944455556666')
    const both = await cli(['-p', 'x', '--resume', '6f1d7b0e-1111-4222-8333-944455556666', '--continue'])
    expect(both.code).toBe(1)
    const fork = await cli(['-p', 'x', '--fork-session'])
    expect(fork.code).toBe(1)
    for (const given of [['--continue'], ['--resume', '6f1d7b0e-1111-4222-8333-944455556666']]) {
      const named = await cli(['-p', 'x', ...given, '--session-id', '0b8a7c6d-1111-4222-8333-944455556666'])
      expect(named).toMatchObject({ code: 1, requests: [] })
      expect(named.err).toContain('modloop: --session-id can only be used with --continue or --resume if --fork-session is also specified.\n')
    }
    const show = await cli(['sessions', 'show', 'nope'])
    expect(show).toMatchObject({ code: 1 })
    expect(show.err).toContain('not a session ID')
  })
})
