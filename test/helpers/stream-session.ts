import { PassThrough } from 'node:stream'
import { main } from '../../cli/main.js'
import { startFakeAnthropic } from './fake-anthropic.js'

// The Agent SDK's transport, driven in process by hand: what the SDK writes on stdin, line by line.
const SDK_ARGS = ['--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json']

/**
 * Runs the CLI as the SDK starts it, against a fake server playing `script`, with a stdin the test
 * writes to; `on` sees each line out as it is written. `env` adds to this process's environment.
 * The caller closes `server`.
 */
export async function streamSession(script: unknown, args: string[], on: (line: any, stdin: PassThrough) => void, cwd: string, env: Record<string, string> = {}) {
  const server = await startFakeAnthropic({ script })
  const stdin = new PassThrough()
  const out: any[] = []
  let err = ''
  let partial = ''
  const io = {
    stdout: {
      write: (t: string) => {
        const lines = (partial + t).split('\n')
        partial = lines.pop()!
        for (const l of lines) {
          const m = JSON.parse(l)
          out.push(m)
          on(m, stdin)
        }
      },
    },
    stderr: { write: (t: string) => (err += t) },
    stdin, cwd,
    env: { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test', MODLOOP_RETRY_BASE_MS: '1', ...env },
  }
  const code = main([...SDK_ARGS, ...args], io as never)
  return { server, stdin, out, err: () => err, code }
}

/** One line of stdin: a JSON message. */
export const line = (o: object) => `${JSON.stringify(o)}\n`
