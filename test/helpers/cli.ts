import { Readable } from 'node:stream'
import type { Io } from '../../cli/io.js'
import { main } from '../../cli/main.js'
import { startFakeAnthropic, type FakeRequest } from './fake-anthropic.js'

export interface CliRun {
  code: number
  out: string
  err: string
  requests: FakeRequest[]
}

/** Runs the CLI in-process against a fresh fake Messages API server, capturing stdout and stderr. */
export async function runCli(args: string[], o: { script: unknown; cwd: string; env?: Record<string, string | undefined>; stdin?: string }): Promise<CliRun> {
  const server = await startFakeAnthropic({ script: o.script })
  let out = ''
  let err = ''
  const io: Io = {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
    cwd: o.cwd,
    // The test process's IS_SANDBOX (vitest.config.ts): the CLI runs as root in CI.
    env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test', MODLOOP_RETRY_BASE_MS: '1', IS_SANDBOX: process.env.IS_SANDBOX, ...o.env },
    // A real stream: the stream-json transport reads it line by line.
    ...(o.stdin !== undefined ? { stdin: Readable.from([Buffer.from(o.stdin)]) } : {}),
  }
  try {
    return { code: await main(args, io), out, err, requests: server.requests }
  } finally {
    await server.close()
  }
}
