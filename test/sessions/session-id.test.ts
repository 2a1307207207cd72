import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isModloopError } from '../../core/errors.js'
import { lockPathOf } from '../../mods/transcripts/store/paths.js'
import { builtCli, execNoInput } from '../helpers/built-cli.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { fileOf, readLines, run, tempCwd } from './helpers.js'


/** Runs the built CLI (`npm run build` first) as its own process against a fake Messages API server. */
async function cliProcess(args: string[], cwd: string, script: unknown): Promise<{ stdout: string; stderr: string }> {
  const server = await startFakeAnthropic({ script })
  try {
    const { CLAUDE_CODE_ENTRYPOINT: _, ...env } = process.env
    return await execNoInput(process.execPath, [builtCli(), ...args], {
      cwd, env: { ...env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test', MODLOOP_RETRY_BASE_MS: '1' },
    })
  } finally {
    await server.close()
  }
}

describe('a new session with a fixed id', () => {
  it('query({ sessionId }): the result and the transcript carry it; lines say sdk-ts and the request id', async () => {
    const cwd = await tempCwd()
    const id = '0b6f5c1e-2d3a-4b8c-9e7f-123456789abc'
    const r = await run([{ reply: 'fixed' }], 'hello', cwd, { sessionId: id })
    expect(r.result.session_id).toBe(id)
    expect(r.starts).toEqual([{ source: 'startup', sessionId: id, transcriptPath: fileOf(cwd, id) }])
    const lines = readLines(fileOf(cwd, id))
    expect(lines.map((l) => l.sessionId)).toEqual(lines.map(() => id))
    expect(lines.map((l) => l.entrypoint)).toEqual(lines.map(() => 'sdk-ts'))
    // The fake server answers with a request-id header, as the API does.
    expect(lines.find((l) => l.type === 'assistant')).toMatchObject({ requestId: 'req_step0' })
    expect(r.messages.find((m) => m.type === 'assistant')).toMatchObject({ request_id: 'req_step0' })
  })

  it('modloop -p --session-id (its own process): the JSON result and the file name carry it; lines say sdk-cli', async () => {
    const cwd = await tempCwd()
    writeFileSync(join(cwd, 'modloop.config.json'), JSON.stringify({ mods: ['transcripts'] }))
    const id = '7d2e9a40-1c5b-4f6e-8a3d-abcdef012345'
    const { stdout } = await cliProcess(['-p', 'hello', '--session-id', id, '--output-format', 'json'], cwd, [{ reply: 'from the cli' }])
    expect(JSON.parse(stdout)).toMatchObject({ session_id: id, result: 'from the cli' })
    const path = fileOf(cwd, id)
    expect(path.endsWith(`/${id}.jsonl`)).toBe(true)
    const lines = readLines(path)
    expect(lines.length).toBeGreaterThan(0)
    expect(new Set(lines.map((l) => l.entrypoint))).toEqual(new Set(['sdk-cli']))
    expect(lines.find((l) => l.type === 'assistant')).toMatchObject({ sessionId: id, requestId: 'req_step0' })
  })

  it('a second session given the same id that loses the race for it is refused as a locked one, and writes nothing', async () => {
    const cwd = await tempCwd()
    const id = '3e4f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7'
    // Both start before either has written a line, so both pass the check that the id is unused.
    const [a, b] = await Promise.all([
      run([{ reply: 'first', delayMs: 200 }], 'one', cwd, { sessionId: id }),
      run([{ reply: 'second', delayMs: 200 }], 'two', cwd, { sessionId: id }),
    ])
    const [won, lost] = a.error ? [b, a] : [a, b]
    expect(won.error).toBeUndefined()
    expect(isModloopError(lost.error, 'MODLOOP_ERR_SESSION_LOCKED')).toBe(true)
    expect((lost.error as Error).message).toContain(`session ${id} is in use by this process`)
    // The loser never reached the model, and the transcript holds the winner's session alone.
    expect(lost.requests).toHaveLength(0)
    const prompts = readLines(fileOf(cwd, id)).filter((l) => l.type === 'user').map((l) => l.message.content[0].text)
    expect(prompts).toEqual([won === a ? 'one' : 'two'])
    expect(existsSync(lockPathOf(fileOf(cwd, id)))).toBe(false)
  })
})
