import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { fileOf, readLines, run, tempCwd } from './helpers.js'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** Runs the built CLI (`npm run build` first) as its own process against a fake Messages API server. */
async function cliProcess(args: string[], cwd: string, script: unknown): Promise<{ stdout: string; stderr: string }> {
  const server = await startFakeAnthropic({ script })
  try {
    const { CLAUDE_CODE_ENTRYPOINT: _, ...env } = process.env
    return await promisify(execFile)(process.execPath, [join(root, 'bin/modloop.cjs'), ...args], {
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
})
