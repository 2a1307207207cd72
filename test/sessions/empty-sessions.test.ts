import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { latestSession } from '../../mods/transcripts/store/locate.js'
import { projectDir } from '../../mods/transcripts/store/paths.js'
import { runCli } from '../helpers/cli.js'
import { tempCwd } from './helpers.js'

let cwd: string
beforeAll(async () => {
  cwd = await tempCwd()
  await writeFile(join(cwd, 'modloop.config.json'), JSON.stringify({ mods: ['transcripts', 'commands'] }))
})

const cli = (args: string[], script: unknown = []) => runCli(args, { script, cwd, env: { MODLOOP_HOME: process.env.MODLOOP_HOME } })
const later = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('sessions that took no prompt', () => {
  it('a session that only ran a command leaves no transcript; --continue, list and the latest skip empty and unreadable files', async () => {
    const first = await cli(['-p', 'the real conversation', '--output-format', 'json'], [{ reply: 'answer' }])
    expect(first.code).toBe(0)
    const id = JSON.parse(first.out).session_id as string
    await later(20)

    const command = await cli(['-p', '/cost', '--output-format', 'json'])
    expect(command.code).toBe(0)
    const commandId = JSON.parse(command.out).session_id as string
    expect(existsSync(join(projectDir(cwd), `${commandId}.jsonl`))).toBe(false)

    // Debris newer than the real session: a file of garbage, and one with only a turn result.
    const dir = projectDir(cwd)
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, '11111111-2222-4333-8444-555555555555.jsonl'), 'not json at all\n\u0000\u0001garbage')
    writeFileSync(join(dir, '66666666-7777-4888-8999-aaaaaaaaaaaa.jsonl'), `${JSON.stringify({ type: 'system', subtype: 'turn_result', uuid: 'u1', parentUuid: null, sessionId: '66666666-7777-4888-8999-aaaaaaaaaaaa', timestamp: new Date().toISOString(), result: { subtype: 'success', total_cost_usd: 0 } })}\n`)
    expect(readdirSync(dir).filter((n) => /^[0-9a-f-]{36}\.jsonl$/.test(n))).toHaveLength(3)

    expect((await latestSession(cwd)).sessionId).toBe(id)
    const continued = await cli(['-p', 'go on', '-c', '--output-format', 'json'], [{ reply: 'went on', expect: { lastUserText: 'go on' } }])
    expect(JSON.parse(continued.out).session_id).toBe(id)
    expect((continued.requests[0]!.body as any).messages).toHaveLength(3)

    const list = JSON.parse((await cli(['sessions', 'list', '--json'])).out)
    expect(list.map((s: any) => s.sessionId)).toEqual([id])
  })

  it('--continue with only empty sessions finds nothing to continue', async () => {
    const empty = await tempCwd()
    const dir = projectDir(empty)
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, '11111111-2222-4333-8444-555555555555.jsonl'), 'garbage\n')
    await expect(latestSession(empty)).rejects.toThrow(/No conversation found to continue/)
  })
})
