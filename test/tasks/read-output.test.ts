import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { sessionDirOf, transcriptPath } from '../../mods/transcripts/store/paths.js'

let dir: string
beforeAll(async () => { dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-task-read-'))) })
afterAll(() => rm(dir, { recursive: true, force: true }))

const SESSION = '11111111-2222-4333-8444-555555555555'
const read = (id: string, file_path: string) => ({ reply: [{ tool_use: { id, name: 'Read', input: { file_path } } }] })

describe('Read of a background task\'s output file', () => {
  it('is allowed without asking in the default mode, though the file lies outside the project; other outside files still ask', async () => {
    const cwd = join(dir, 'project')
    const home = join(dir, 'home')
    await mkdir(cwd)
    const tasksDir = join(sessionDirOf(transcriptPath(cwd, SESSION, { MODLOOP_HOME: home })), 'tasks')
    const outside = join(dir, 'outside.txt')
    await writeFile(outside, 'secret\n')
    const r = await runCli(['-p', 'go', '--output-format', 'stream-json', '--verbose', '--session-id', SESSION, '--allowedTools', 'Bash'], {
      cwd, env: { MODLOOP_HOME: home },
      script: [
        // The job ends once the first turn's answer is in the transcript, however slow the machine:
        // its notification then starts the turn that reads its output. (The bracket keeps the
        // pattern from matching this command, which the transcript holds too.)
        { reply: [{ tool_use: { name: 'Bash', input: { command: `echo started; until grep -q 'start[e]d it' '${transcriptPath(cwd, SESSION, { MODLOOP_HOME: home })}'; do sleep 0.05; done; echo finished`, description: 'the job', run_in_background: true } } }] },
        read('toolu_outside', outside),
        { reply: 'started it' },
        read('toolu_read', join(tasksDir, 'bash_1.output')),
        { reply: 'read it' },
      ],
    })
    expect(r.code, r.err).toBe(0)
    const results = r.out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>)
      .flatMap((l) => (l.type === 'user' && Array.isArray(l.message.content) ? l.message.content : []))
    const resultOf = (id: string) => results.find((b: { tool_use_id?: string }) => b.tool_use_id === id)
    expect(resultOf('toolu_outside')).toMatchObject({ is_error: true })
    expect(resultOf('toolu_read').is_error).toBeFalsy()
    expect(JSON.stringify(resultOf('toolu_read').content)).toMatch(/started.*finished/)
  })
})
