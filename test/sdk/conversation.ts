import type { SDKMessage, SDKResultMessage } from '../../core/loop/messages.js'
import type { QueryOptions } from '../../runtime/options.js'
import { query } from '../../entry.js'
import type { Query } from '../../runtime/query.js'
import { channel } from '../helpers/channel.js'
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.js'

export { channel }

export interface Conversation {
  q: Query
  server: FakeAnthropic
  seen: SDKMessage[]
  /** Sends a prompt and resolves with the result of the turn it starts. */
  say(text: string): Promise<SDKResultMessage>
  /** Ends the input and waits for the stream to finish. */
  end(): Promise<void>
}

/**
 * A streaming-input session against the fake Messages API server, driven one prompt at a time,
 * so a test can use the Query controls between (or during) turns.
 */
export async function conversation(script: unknown, options: QueryOptions): Promise<Conversation> {
  const server = await startFakeAnthropic({ script })
  const ch = channel()
  const q = query({ prompt: ch.input, options: { bare: true, ...options, env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 't', MODLOOP_RETRY_BASE_MS: '1', ...options.env } } })
  const seen: SDKMessage[] = []
  const waiting: ((r: SDKResultMessage) => void)[] = []
  const pumped = (async () => {
    for await (const m of q) {
      seen.push(m)
      if (m.type === 'result') waiting.shift()?.(m)
    }
  })()
  return {
    q, server, seen,
    say: (text) => new Promise<SDKResultMessage>((resolve) => { waiting.push(resolve); ch.send(text) }),
    end: async () => {
      ch.close()
      try {
        await pumped
      } finally {
        await server.close()
      }
    },
  }
}
