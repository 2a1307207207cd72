import { appendFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { fileOf, readLines, tempCwd } from './helpers.js'

describe('modloop sessions list, the table', () => {
  it('shows each session\'s last activity, turns, title and first prompt — the first prompt stays beside a given title', async () => {
    const cwd = await tempCwd()
    writeFileSync(join(cwd, 'modloop.config.json'), JSON.stringify({ mods: ['transcripts'] }))
    const cli = (args: string[], script: unknown = []) => runCli(args, { script, cwd, env: { MODLOOP_HOME: process.env.MODLOOP_HOME } })
    const first = JSON.parse((await cli(['-p', 'fix the flaky login test', '--output-format', 'json'], [{ reply: 'fixed' }])).out).session_id as string
    const second = JSON.parse((await cli(['-p', 'write the release notes', '--output-format', 'json'], [{ reply: 'written' }])).out).session_id as string
    // What a /rename or a hook's sessionTitle leaves: a custom-title line.
    appendFileSync(fileOf(cwd, first), `${JSON.stringify({ type: 'custom-title', customTitle: 'Login flake', sessionId: first })}\n`)

    const out = (await cli(['sessions', 'list'])).out
    const [header, ...rows] = out.trimEnd().split('\n')
    expect(header).toMatch(/^ID\s+LAST ACTIVITY\s+TURNS\s+TITLE\s+FIRST PROMPT$/)
    const lastActivity = (id: string) => readLines(fileOf(cwd, id)).filter((l) => l.timestamp).at(-1)!.timestamp.replace('T', ' ').slice(0, 19)
    const row = (id: string) => rows.find((r) => r.startsWith(id))
    expect(rows).toHaveLength(2)
    expect(row(second)).toMatch(new RegExp(`^${second}  ${lastActivity(second)}  1\\s+-\\s+write the release notes$`))
    expect(row(first)).toMatch(new RegExp(`^${first}  ${lastActivity(first)}  1\\s+Login flake\\s+fix the flaky login test$`))
  })
})
