import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SDKMessage, SDKResultMessage } from '../../core/loop/messages.js'
import type { ModSpec } from '../../runtime/options.js'
import { query } from '../../entry.js'
import { ManualClock } from '../../testing/manual-clock.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { channel } from '../helpers/channel.js'

/** Monday 5 January 2026, 10:00:30 local time: where every test's clock starts. */
export const START = new Date(2026, 0, 5, 10, 0, 30).getTime()
export const DAY = 24 * 60 * 60_000

export const newProject = () => mkdtemp(join(tmpdir(), 'modloop-cron-'))

export interface CronRun {
  messages: SDKMessage[]
  results: SDKResultMessage[]
  requests: { body: any }[]
}

/**
 * A streaming session with the cron mod on `clock`: it opens with `first`, and `drive` hears each
 * result (with its index) and says what to do next: send a prompt, run the clock's next timer, or
 * end the input.
 */
export async function cronSession(script: unknown, first: string, opts: { clock: ManualClock; cwd: string; mods?: ModSpec[]; log?: (line: string) => void }, drive: (result: SDKResultMessage, index: number, ch: ReturnType<typeof channel>) => void): Promise<CronRun> {
  const server = await startFakeAnthropic({ script })
  const ch = channel()
  const messages: SDKMessage[] = []
  const results: SDKResultMessage[] = []
  try {
    ch.send(first)
    const q = query({ prompt: ch.input, options: { bare: true, cwd: opts.cwd, mods: [['cron', { clock: opts.clock }], ...(opts.mods ?? [])], env: { ...process.env, HOME: opts.cwd, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 't' }, ...(opts.log ? { log: opts.log } : {}) } })
    for await (const m of q) {
      messages.push(m)
      if (m.type === 'result') {
        results.push(m)
        drive(m, results.length - 1, ch)
      }
    }
  } finally {
    await server.close()
  }
  return { messages, results, requests: server.requests as { body: any }[] }
}

/** What the model was sent last in a request: the text of the last user message, or its tool results' texts. */
export function lastSent(body: any): string[] {
  const last = body.messages.at(-1)
  if (typeof last.content === 'string') return [last.content]
  return last.content.map((b: any) => (b.type === 'text' ? b.text : typeof b.content === 'string' ? b.content : (b.content ?? []).map((c: any) => c.text).join('')))
}
