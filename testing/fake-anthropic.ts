import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as delay } from 'node:timers/promises'
import {
  assembleMessage, createScriptCursor, estimateJsonTokens, loadScript, type ScriptAnswer, type ScriptRequest,
} from './model/script.js'
import { PromptCache, type CacheFigures } from './prompt-cache.js'

export interface FakeAnthropicOptions {
  /** A script value, a parsed Script, or a path to a script file. */
  script: unknown
  /** Defaults to an ephemeral port. */
  port?: number
  /** The prompt cache's clock (ms): a test moves it on to let entries expire. Defaults to Date.now. */
  now?: () => number
}

export interface FakeRequest {
  body: Record<string, unknown>
  headers: IncomingHttpHeaders
  path: string
  /** performance.now() when the whole request had arrived (benchmarks time the client's gap between rounds). */
  receivedAt: number
  /** performance.now() when its response was fully written; absent until then. */
  answeredAt?: number
  /** What the prompt cache made of its breakpoints (its usage figures), when it had any. */
  cache?: CacheFigures
}

export interface FakeAnthropic {
  /** The base URL to hand the SDK (`baseURL`) or ANTHROPIC_BASE_URL. */
  url: string
  /** Every request received, in arrival order. */
  requests: FakeRequest[]
  close(): Promise<void>
}

/**
 * A Messages API stand-in on 127.0.0.1, answering from a model script with the real SSE framing,
 * so tests drive the real SDK and the real HTTP path without the network. Requests with cache
 * breakpoints are counted by its prompt cache (prompt-cache.ts), as the API counts them.
 */
export async function startFakeAnthropic(options: FakeAnthropicOptions): Promise<FakeAnthropic> {
  const cursor = createScriptCursor(await loadScript(options.script))
  const requests: FakeRequest[] = []
  const cache = new PromptCache(options.now)

  const server = createServer((req, res) => {
    // A client that aborts mid-stream makes later writes fail; that is expected, not a crash.
    res.on('error', () => {})
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendError(res, 500, 'api_error', `fake server failure: ${String(err)}`)
      else res.destroy()
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = req.url ?? '/'
    const pathname = new URL(path, 'http://fake').pathname
    const text = await readBody(req)
    let body: Record<string, unknown>
    try {
      body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>)
    } catch {
      return sendError(res, 400, 'invalid_request_error', 'the request body is not JSON')
    }
    const received: FakeRequest = { body, headers: req.headers, path, receivedAt: performance.now() }
    requests.push(received)
    res.once('finish', () => { received.answeredAt = performance.now() })
    if (req.method !== 'POST') return sendError(res, 405, 'invalid_request_error', `${req.method} is not supported`)
    if (pathname === '/v1/messages/count_tokens') {
      return sendJson(res, 200, { input_tokens: estimateJsonTokens([body.system, body.messages, body.tools]) })
    }
    if (pathname !== '/v1/messages') return sendError(res, 404, 'not_found_error', `no route ${pathname}`)
    // Marks the API refuses fail the request before any step is spent on it.
    const counted = cache.count(body)
    if (counted && 'error' in counted) return sendError(res, 400, 'invalid_request_error', counted.error)
    if (counted) received.cache = counted
    await answer(cursor.next(body as ScriptRequest, counted ?? undefined), body.stream === true, res)
  }

  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))
  })

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve())
      // Keep-alive sockets would otherwise hold the server (and the test run) open.
      server.closeAllConnections()
    }),
  }
}

async function answer(reply: ScriptAnswer, stream: boolean, res: ServerResponse): Promise<void> {
  if (reply.kind === 'error') {
    const headers: Record<string, string> = {}
    if (reply.retryAfter !== undefined) headers['retry-after'] = reply.retryAfter
    // An exhausted script is not worth a retry at all.
    if (reply.exhausted) headers['x-should-retry'] = 'false'
    return sendError(res, reply.status, reply.type, reply.message, headers)
  }
  const { step, events } = reply
  if (step.delayMs) await delay(step.delayMs)
  if (res.destroyed) return
  if (!stream) {
    if (step.truncateAfter !== undefined && step.truncateAfter < events.length) return void res.destroy()
    return sendJson(res, 200, assembleMessage(events))
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_step${reply.stepIndex}` })
  res.flushHeaders()
  const cut = Math.min(events.length, step.truncateAfter ?? Infinity, step.stallAfter ?? Infinity, step.malformedAfter ?? Infinity)
  for (let i = 0; i < cut; i++) {
    if (i > 0 && step.chunkDelayMs) await delay(step.chunkDelayMs)
    // The client went away (an abort): stop writing.
    if (res.destroyed || res.socket?.destroyed) return
    const event = events[i]!
    res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
  }
  if (step.stallAfter !== undefined && step.stallAfter === cut) {
    // Silent, the connection open, until the client gives up on it.
    if (!res.destroyed) await new Promise((resolve) => res.once('close', resolve))
    return
  }
  if (step.malformedAfter !== undefined && step.malformedAfter === cut) {
    res.end('event: content_block_delta\ndata: {"type": "content_block_delta", not json\n\n')
    return
  }
  if (cut < events.length) {
    // Give the written frames a moment to leave before cutting the connection under them.
    await delay(5)
    res.socket?.destroy()
    return
  }
  res.end()
}

function sendError(res: ServerResponse, status: number, type: string, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { type: 'error', error: { type, message } }, headers)
}

function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(value)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers })
  res.end(text)
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
