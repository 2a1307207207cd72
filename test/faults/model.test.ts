import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Io } from '../../cli/io.js'
import { main } from '../../cli/main.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-faults-model-')))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

/** Runs `modloop -p` in-process; `onErr` sees each stderr line with the requests the server had answered then. */
async function run(args: string[], script: unknown, onErr: (line: string, requestsSoFar: number) => void = () => {}) {
  const server = await startFakeAnthropic({ script })
  let out = ''
  let err = ''
  const io: Io = {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => { err += t; onErr(t, server.requests.length) } },
    cwd: dir,
    env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test', MODLOOP_HOME: join(dir, 'home'), MODLOOP_RETRY_BASE_MS: '200' },
  }
  try {
    return { code: await main(args, io), out, err, requests: server.requests.length }
  } finally {
    await server.close()
  }
}

describe('retry progress in text mode', () => {
  it.each([529, 500, 429])('API error %i: one stderr line per attempt, printed as the wait begins', async (status) => {
    const seen: number[] = []
    const r = await run(['-p', 'go'], [{ error: { status }, times: 2 }, { reply: 'fine' }], (line, n) => {
      if (line.includes('retrying in')) seen.push(n)
    })
    expect(r.code).toBe(0)
    expect(r.out).toBe('fine\n')
    expect(r.err).toMatch(new RegExp(`modloop: API error ${status}, retrying in \\d+\\.\\d s \\(attempt 1 of \\d+\\)`))
    expect(r.err).toMatch(/\(attempt 2 of \d+\)/)
    // Each line came before the request it announces: while the wait was still running.
    expect(seen).toEqual([1, 2])
  })
})

describe('--max-turns 0', () => {
  it('sends no request and ends with error_max_turns', async () => {
    const r = await run(['-p', 'go', '--max-turns', '0', '--output-format', 'json'], [{ reply: 'never' }])
    expect(r.code).toBe(1)
    expect(r.requests).toBe(0)
    expect(JSON.parse(r.out)).toMatchObject({ subtype: 'error_max_turns', terminal_reason: 'max_turns' })
  })
})
