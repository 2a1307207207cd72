import { z } from 'zod'
import { defineMod } from '../../core/mod/define.js'
import type { SDKMessage, SDKResultMessage } from '../../core/loop/messages.js'
import type { QueryOptions } from '../../runtime/options.js'
import type { Query } from '../../runtime/query.js'
import { query } from '../../entry.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'

/**
 * Gates a test opens: the `Gate` tool waits until the test calls `open(label)` (before or after
 * the call came), or until its call is aborted. A subagent that calls it cannot finish before the
 * test has seen what it waits for: order is shown without any clock.
 */
export function gates() {
  const opened = new Set<string>()
  const waiting = new Map<string, () => void>()
  const mod = defineMod({
    name: 'gate',
    register(on) {
      on('session.start', async ($, e, next) => {
        await $.tool.register({
          name: 'Gate', description: 'Waits until the test opens the gate', input: z.object({ label: z.string() }), isReadOnly: true,
          call: (i: { label: string }, ctx: { signal: AbortSignal }) => new Promise((resolve, reject) => {
            if (opened.has(i.label)) return resolve({ result: `gate ${i.label} was open` })
            waiting.set(i.label, () => resolve({ result: `gate ${i.label} opened` }))
            ctx.signal.addEventListener('abort', () => reject(new Error(`gate ${i.label}: aborted`)), { once: true })
          }),
        } as never)
        return next(e)
      })
    },
  })
  return {
    mod,
    open(label: string) {
      opened.add(label)
      waiting.get(label)?.()
    },
  }
}

export interface TaskRun {
  messages: SDKMessage[]
  results: SDKResultMessage[]
  requests: { body: any }[]
  error?: unknown
  /** `type/subtype` of every message, in order. */
  kinds: string[]
}

/** Runs a prompt through query() against the fake server; `onMessage` sees each message (and the query) as it comes. */
export async function runTasks(script: unknown, prompt: string, options: QueryOptions, onMessage?: (m: SDKMessage, q: Query) => unknown): Promise<TaskRun> {
  const server = await startFakeAnthropic({ script })
  const messages: SDKMessage[] = []
  let error: unknown
  try {
    const q = query({
      prompt,
      options: { bare: true, ...options, env: { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test', MODLOOP_RETRY_BASE_MS: '1', ...options.env } },
    })
    for await (const m of q) {
      messages.push(m)
      await onMessage?.(m, q)
    }
  } catch (err) {
    error = err
  } finally {
    await server.close()
  }
  const kinds = messages.map((m) => `${m.type}${'subtype' in m && m.subtype ? `/${m.subtype}` : ''}`)
  return { messages, results: messages.filter((m): m is SDKResultMessage => m.type === 'result'), requests: server.requests, error, kinds }
}

/** The messages of one system subtype. */
export const system = (run: TaskRun, subtype: string) => run.messages.filter((m) => m.type === 'system' && m.subtype === subtype) as Record<string, any>[]

/** The text of the last user message of a request (strings and text blocks; tool results as their content). */
export function lastUserText(body: any): string {
  const last = body.messages.at(-1)
  if (typeof last.content === 'string') return last.content
  return last.content.map((b: any) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? (typeof b.content === 'string' ? b.content : JSON.stringify(b.content)) : '')).join('\n')
}

/** The tool_result of the main conversation for a tool_use id. */
export function toolResultOf(run: TaskRun, toolUseId: string): { text: string; result: any } {
  const m = run.messages.find((x) => x.type === 'user' && !x.parent_tool_use_id && Array.isArray(x.message.content) && x.message.content.some((b: any) => b.type === 'tool_result' && b.tool_use_id === toolUseId)) as any
  const block = m.message.content.find((b: any) => b.tool_use_id === toolUseId)
  return { text: typeof block.content === 'string' ? block.content : JSON.stringify(block.content), result: m.tool_use_result }
}
