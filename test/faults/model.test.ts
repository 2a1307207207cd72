import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Io } from '../../cli/io.js'
import { main } from '../../cli/main.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { lastUserText, toolResults } from './hook-project.js'
import { expectCleanEnd, faultyEnv, parseStream } from './run-faulty.js'

// `modloop -p` in-process against the fake Messages API over real SSE: the faults are on the wire.

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-faults-model-')))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

/** Runs `modloop -p` in-process; `onErr` sees each stderr line with the requests the server had answered then. */
async function run(args: string[], script: unknown, o: { env?: Record<string, string>; onErr?: (line: string, requestsSoFar: number) => void } = {}) {
  const server = await startFakeAnthropic({ script })
  let out = ''
  let err = ''
  const io: Io = {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => { err += t; o.onErr?.(t, server.requests.length) } },
    cwd: dir,
    env: faultyEnv(dir, server.url, { MODLOOP_RETRY_BASE_MS: '200', ...o.env }),
  }
  try {
    return { code: await main(args, io), out, err, requests: server.requests }
  } finally {
    await server.close()
  }
}

/** A stream-json run: its messages, result and the API retries it announced. */
async function streamed(script: unknown, env: Record<string, string> = {}) {
  const r = await run(['-p', 'go', '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions'], script, { env })
  const { messages, result } = parseStream(r.out)
  const retries = messages.filter((m) => m.type === 'system' && m.subtype === 'api_retry')
  return { ...r, messages, result, retries }
}

const bash = (command: string) => ({ tool_use: { name: 'Bash', input: { command } } })
// A Bash call then a text block: message_start, the tool block (start, 2 deltas, stop) = 5 events, then the text block.
const TOOL_THEN_TEXT = [bash('echo kept'), { text: 'and more to say' }]
const AFTER_TOOL_BLOCK = 6
const IN_FIRST_BLOCK = 2
const QUICK_IDLE = { MODLOOP_STREAM_IDLE_TIMEOUT_MS: '300' }

describe('retry progress in text mode', () => {
  it.each([529, 500, 429])('API error %i: one stderr line per attempt, printed as the wait begins', async (status) => {
    const seen: number[] = []
    const r = await run(['-p', 'go'], [{ error: { status }, times: 2 }, { reply: 'fine' }], {
      onErr: (line, n) => {
        if (line.includes('retrying in')) seen.push(n)
      },
    })
    expect(r.code).toBe(0)
    expect(r.out).toBe('fine\n')
    expect(r.err).toMatch(new RegExp(`modloop: API error ${status}, retrying in \\d+\\.\\d s \\(attempt 1 of \\d+\\)`))
    expect(r.err).toMatch(/\(attempt 2 of \d+\)/)
    // Each line came before the request it announces: while the wait was still running.
    expect(seen).toEqual([1, 2])
  })
})

describe('API errors, with and without retry-after', () => {
  it('a retry-after header sets the wait; without one the wait is the backoff', async () => {
    const r = await streamed([
      { error: { status: 429 }, retryAfter: '0.3' },
      { error: { status: 529 }, retryAfter: null },
      { error: { status: 500 }, retryAfter: '0.1' },
      { reply: 'fine' },
    ])
    expect(r.result).toMatchObject({ subtype: 'success', result: 'fine' })
    expect(r.retries.map((m) => [m.error_status, m.retry_delay_ms])).toEqual([[429, 300], [529, expect.any(Number)], [500, 100]])
    // The backoff of a second attempt (twice the 200 ms base), not the previous retry-after; the
    // jitter's range is proven on backoffMs itself (test/model/anthropic-retry.test.ts).
    expect(r.retries[1]!.retry_delay_ms).toBeGreaterThanOrEqual(400)
    await expectCleanEnd(dir, r)
  })

  it('past the retries the run ends with an error result naming the status and the retries; a StopFailure hook exiting 2 changes nothing', async () => {
    await mkdir(join(dir, '.claude'), { recursive: true })
    const hook = join(dir, 'stop-failure.sh')
    await writeFile(hook, `#!/bin/sh\ncat > ${dir}/stop-failure.json\necho "exit 2 from StopFailure" >&2\nexit 2\n`, { mode: 0o755 })
    await writeFile(join(dir, '.claude', 'settings.json'), JSON.stringify({ hooks: { StopFailure: [{ hooks: [{ type: 'command', command: hook }] }] } }))
    try {
      const r = await streamed([{ error: { status: 529, message: 'Overloaded' }, times: 5 }, { reply: 'never' }], { MODLOOP_MAX_RETRIES: '2', MODLOOP_RETRY_BASE_MS: '1' })
      expect(r.requests).toHaveLength(3)
      expect(r.result).toMatchObject({ is_error: true, result: expect.stringContaining('Overloaded (gave up after 2 retries)') })
      expect(r.code).toBe(1)
      expect(JSON.parse(await readFile(join(dir, 'stop-failure.json'), 'utf8'))).toMatchObject({ hook_event_name: 'StopFailure', error: 'overloaded', last_assistant_message: expect.stringMatching(/Overloaded .* - .*try again in a moment/) })
      await expectCleanEnd(dir, r)
    } finally {
      await rm(join(dir, '.claude'), { recursive: true, force: true })
    }
  })
})

describe('faults in the middle of a stream', () => {
  it('a reset before a block completed is retried from the start', async () => {
    const r = await streamed([
      { reply: TOOL_THEN_TEXT, truncateAfter: IN_FIRST_BLOCK },
      { reply: TOOL_THEN_TEXT },
      { reply: 'done', expect: { toolResults: 1 } },
    ])
    expect(r.result, r.err).toMatchObject({ subtype: 'success', result: 'done' })
    expect(r.retries).toHaveLength(1)
    expect(r.retries[0]!.error_message).toContain('cut off before message_stop')
    await expectCleanEnd(dir, r)
  })

  it.each([
    ['a reset', { truncateAfter: AFTER_TOOL_BLOCK }],
    ['a stall', { stallAfter: AFTER_TOOL_BLOCK }],
  ])('%s after a tool block completed is not retried: the completed call runs, is answered, and the turn goes on', async (_, fault) => {
    const r = await streamed([{ reply: TOOL_THEN_TEXT, ...fault }, { reply: 'done', expect: { toolResults: 1 } }], QUICK_IDLE)
    expect(r.retries).toHaveLength(0)
    expect(r.result, r.err).toMatchObject({ subtype: 'success', result: 'done' })
    expect(toolResults(r.requests[1]!)).toEqual({ 'echo kept': 'kept' })
    await expectCleanEnd(dir, r)
  })

  it('a frame that is not JSON is a cut stream: retried before a block completed', async () => {
    const r = await streamed([{ reply: TOOL_THEN_TEXT, malformedAfter: IN_FIRST_BLOCK }, { reply: TOOL_THEN_TEXT }, { reply: 'done', expect: { toolResults: 1 } }])
    expect(r.result, r.err).toMatchObject({ subtype: 'success', result: 'done' })
    expect(r.retries).toHaveLength(1)
    await expectCleanEnd(dir, r)
  })
})

describe('a stream without its closing frame', () => {
  const start = { type: 'message_start', message: { id: 'msg_raw', type: 'message', role: 'assistant', model: 'claude-opus-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } }
  const said = [
    start, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'all said' } }, { type: 'content_block_stop', index: 0 },
  ]
  const delta = { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } }

  it('that said why it stopped is a whole response: not continued', async () => {
    const r = await streamed([{ events: [...said, delta] }, { reply: 'never' }])
    expect(r.result, r.err).toMatchObject({ subtype: 'success', result: 'all said', stop_reason: 'end_turn' })
    expect(r.requests).toHaveLength(1)
    await expectCleanEnd(dir, r)
  })

  it('that did not is a cut stream, continued', async () => {
    const r = await streamed([{ events: said }, { reply: 'went on', expect: { lastUserText: 'cut off' } }])
    expect(r.result, r.err).toMatchObject({ subtype: 'success', result: 'went on' })
    expect(r.requests).toHaveLength(2)
  })
})

describe('a stream that stalls', () => {
  it('silence past the idle timeout, before any event or mid-block, is given up on and retried', async () => {
    const r = await streamed([
      { reply: TOOL_THEN_TEXT, stallAfter: 0 },
      { reply: TOOL_THEN_TEXT, stallAfter: IN_FIRST_BLOCK },
      { reply: TOOL_THEN_TEXT },
      { reply: 'done', expect: { toolResults: 1 } },
    ], QUICK_IDLE)
    expect(r.result, r.err).toMatchObject({ subtype: 'success', result: 'done' })
    expect(r.retries.map((m) => m.error_message)).toEqual([
      expect.stringContaining('stream idle timeout: no event from the API for 300 ms (no event received'),
      expect.stringContaining('stream idle timeout: no event from the API for 300 ms (partial response received'),
    ])
    expect(lastUserText(r.requests[3]!)).toContain('kept')
    await expectCleanEnd(dir, r)
  })

  it('a stream that stalls on every try ends the run with an error naming the idle time', async () => {
    const r = await streamed([{ reply: 'never', stallAfter: 1 }, { reply: 'never', stallAfter: 1 }], { ...QUICK_IDLE, MODLOOP_MAX_RETRIES: '1', MODLOOP_RETRY_BASE_MS: '1' })
    expect(r.requests).toHaveLength(2)
    expect(r.result).toMatchObject({ is_error: true, result: expect.stringContaining('stream idle timeout: no event from the API for 300 ms (partial response received') })
    expect(r.result!.result).toContain('(gave up after 1 retries)')
    expect(r.code).toBe(1)
    await expectCleanEnd(dir, r)
  })
})

describe('a request the API refuses as too large (413)', () => {
  it('ends image_error with words saying what to do, and is not retried', async () => {
    const r = await run(['-p', 'go', '--output-format', 'json'], [{ error: { status: 413, type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' } }, { reply: 'never' }])
    expect(r.requests).toHaveLength(1)
    expect(JSON.parse(r.out)).toMatchObject({
      subtype: 'success', is_error: true, terminal_reason: 'image_error', api_error_status: 413,
      result: 'Request too large (max 32MB). Accumulated images and attachments in the conversation pushed the request over the limit. Remove older images or compact the conversation.',
    })
    expect(r.code).toBe(1)
  })
})

describe('the words an API error ends the turn with', () => {
  it.each([
    [401, 'authentication_error', 'invalid x-api-key', 'check ANTHROPIC_API_KEY'],
    [403, 'permission_error', 'Your API key does not have permission to use the specified resource.', 'credentials were refused'],
    [404, 'not_found_error', 'model: claude-nope', 'choose another with --model'],
    [500, 'api_error', 'Internal server error', 'try again in a moment'],
    [529, 'overloaded_error', 'Overloaded', 'try again in a moment'],
  ])('%i keeps the API\'s message and says what to do next', async (status, type, message, hint) => {
    const r = await run(['-p', 'go', '--output-format', 'json'], [{ error: { status, type, message }, times: 3 }], { env: { CLAUDE_CODE_MAX_RETRIES: '0' } })
    const { result } = JSON.parse(r.out) as { result: string }
    expect(result).toMatch(new RegExp(`^API Error ${status}: ${message.replace(/[.]/g, '\\.')}.* - .*${hint}`))
    expect(r.code).toBe(1)
  })

  it('a 400 is left as the API said it: its message says what is wrong', async () => {
    const r = await run(['-p', 'go', '--output-format', 'json'], [{ error: { status: 400, message: 'messages: text content blocks must be non-empty' } }], { env: { CLAUDE_CODE_MAX_RETRIES: '0' } })
    expect(JSON.parse(r.out)).toMatchObject({ result: 'API Error 400: messages: text content blocks must be non-empty' })
  })
})

describe('a response cut short by the output cap on every continuation', () => {
  it('-p prints why and exits 1', async () => {
    const cut = { reply: 'more', stop_reason: 'max_tokens' }
    const r = await run(['-p', 'go'], [cut, cut, cut, cut], { env: { CLAUDE_CODE_MAX_OUTPUT_TOKENS: '5000' } })
    expect(r.requests).toHaveLength(4)
    expect(r.out).toBe("API Error: Claude's response exceeded the 5000 output token maximum. To configure this behavior, set the CLAUDE_CODE_MAX_OUTPUT_TOKENS environment variable.\n")
    expect(r.code).toBe(1)
  })
})

describe('--max-turns 0', () => {
  it('sends no request and ends with error_max_turns', async () => {
    const r = await run(['-p', 'go', '--max-turns', '0', '--output-format', 'json'], [{ reply: 'never' }])
    expect(r.code).toBe(1)
    expect(r.requests).toHaveLength(0)
    expect(JSON.parse(r.out)).toMatchObject({ subtype: 'error_max_turns', terminal_reason: 'max_turns' })
  })
})
