import { afterEach } from 'vitest'
import { createAnthropicModel, type AnthropicModelOptions } from '../../runtime/model/anthropic.js'
import type { Model, ModelRequest, RawMessageStreamEvent, StreamOptions } from '../../core/model/types.js'
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.js'

export const request: ModelRequest = {
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  messages: [{ role: 'user', content: 'hello there' }],
}

const servers: FakeAnthropic[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

/** A fake server for `script` (closed after the test) and an adapter pointed at it. */
export async function fakeModel(script: unknown, options: AnthropicModelOptions = {}): Promise<{ server: FakeAnthropic; model: Model }> {
  const server = await startFakeAnthropic({ script })
  servers.push(server)
  const model = createAnthropicModel({ apiKey: 'test', baseURL: server.url, retryBaseMs: 1, ...options })
  return { server, model }
}

export async function collect(model: Model, req: ModelRequest = request, options?: StreamOptions): Promise<RawMessageStreamEvent[]> {
  const events: RawMessageStreamEvent[] = []
  for await (const event of model.stream(req, options)) events.push(event)
  return events
}

/** Runs the stream to its end and returns what it threw (fails when it did not throw). */
export async function failure(model: Model, req: ModelRequest = request, options?: StreamOptions): Promise<unknown> {
  try {
    await collect(model, req, options)
  } catch (err) {
    return err
  }
  throw new Error('the stream did not fail')
}
