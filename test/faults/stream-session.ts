import { spawn } from 'node:child_process'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { faultyEnv, type FaultyRun } from './run-faulty.js'
import { builtCli } from '../helpers/built-cli.js'


/** One line the test writes: a user prompt, or a control request of the SDK's (`set_permission_mode`, …). */
export type StreamInput = string | { control: Record<string, unknown> & { subtype: string } }

export interface StreamOptions {
  script: unknown
  inputs: StreamInput[]
  /** Arguments after the transport's own (`--input-format stream-json --output-format stream-json --verbose`). */
  args?: string[]
  env?: Record<string, string>
  /** The answer to a `can_use_tool` request (`--permission-prompt-tool stdio`), at once or once it settles; deny by default. */
  canUseTool?: (request: Record<string, any>) => Record<string, unknown> | Promise<Record<string, unknown>>
}

export interface StreamRun extends FaultyRun {
  /** Every result, one per input prompt, in order. */
  results: Record<string, any>[]
}

/**
 * Runs the built CLI as the Agent SDK's transport: a headless session fed on stdin. Each input is
 * written once the one before was answered (its `result`, or its `control_response`), so a
 * session of several prompts runs in a known order; stdin closes after the last, which ends the
 * session. `result` is the last result.
 */
export async function runStreaming(cwd: string, o: StreamOptions): Promise<StreamRun> {
  const server = await startFakeAnthropic({ script: o.script })
  try {
    const child = spawn(process.execPath, [builtCli(), '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', ...(o.args ?? [])], {
      cwd, env: faultyEnv(cwd, server.url, o.env), stdio: ['pipe', 'pipe', 'pipe'],
    })
    const messages: Record<string, any>[] = []
    let err = ''
    let partial = ''
    const inputs = [...o.inputs]
    let waitingFor: string | undefined
    const write = (line: object) => child.stdin.write(`${JSON.stringify(line)}\n`)
    const next = () => {
      const input = inputs.shift()
      if (input === undefined) return void child.stdin.end()
      if (typeof input === 'string') {
        waitingFor = 'result'
        write({ type: 'user', session_id: '', message: { role: 'user', content: input }, parent_tool_use_id: null })
      } else {
        waitingFor = `control:${messages.length}`
        write({ type: 'control_request', request_id: waitingFor, request: input.control })
      }
    }
    const onMessage = (m: Record<string, any>) => {
      messages.push(m)
      if (m.type === 'control_request' && m.request?.subtype === 'can_use_tool') {
        void Promise.resolve(o.canUseTool?.(m.request) ?? { behavior: 'deny', message: 'denied by the test' }).then((response) =>
          write({ type: 'control_response', response: { subtype: 'success', request_id: m.request_id, response } }))
      }
      const answered = (m.type === 'result' && waitingFor === 'result') || (m.type === 'control_response' && m.response?.request_id === waitingFor)
      if (answered) next()
    }
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n')
      partial = lines.pop()!
      for (const l of lines) if (l.trim()) onMessage(JSON.parse(l) as Record<string, any>)
    })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk))
    // A session that dies early must not fail on a write to its closed stdin.
    child.stdin.on('error', () => {})
    next()
    const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)))
    const results = messages.filter((m) => m.type === 'result')
    return { code, err, messages, result: results.at(-1), results, requests: server.requests }
  } finally {
    await server.close()
  }
}
