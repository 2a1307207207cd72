import { z } from 'zod'
import { defineMod } from '../../core/mod/define.js'
import type { SDKMessage, SDKResultMessage } from '../../core/loop/messages.js'
import type { QueryOptions } from '../../runtime/options.js'
import { query } from '../../entry.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'

/** Tools for loop tests: Echo (read-only), Wait (read-only, sleeps), Touch (writes: a serial barrier), Boom (throws). */
export const toolsMod = (log: string[] = []) => defineMod({
  name: 'test-tools',
  register(on) {
    on('session.start', async ($, e, next) => {
      const sleep = (ms: number, signal: AbortSignal) => new Promise<void>((resolve, reject) => {
        const t = setTimeout(resolve, ms)
        signal.addEventListener('abort', () => { clearTimeout(t); reject(new Error('aborted')) }, { once: true })
      })
      await $.tool.register({ name: 'Echo', description: 'Echo text', input: z.object({ text: z.string() }), isReadOnly: true, call: (i: { text: string }) => ({ result: i.text }) } as never)
      await $.tool.register({
        name: 'Wait', description: 'Wait ms', input: z.object({ ms: z.number(), label: z.string() }), isReadOnly: true,
        call: async (i: { ms: number; label: string }, ctx: { signal: AbortSignal }) => {
          log.push(`start ${i.label} ${Math.round(performance.now())}`)
          await sleep(i.ms, ctx.signal)
          log.push(`end ${i.label} ${Math.round(performance.now())}`)
          return { result: `waited ${i.label}` }
        },
      } as never)
      await $.tool.register({ name: 'Touch', description: 'Write something', input: z.object({ label: z.string() }), call: (i: { label: string }) => { log.push(`touch ${i.label}`); return { result: `touched ${i.label}` } } } as never)
      await $.tool.register({ name: 'Boom', description: 'Always throws', input: z.object({}), isReadOnly: true, call: () => { throw new Error('kaboom') } } as never)
      return next(e)
    })
  },
})

export interface Run {
  messages: SDKMessage[]
  result: SDKResultMessage
  requests: { body: any }[]
  error?: unknown
}

/** Runs one prompt through the real SDK against the fake Messages API server. */
export async function runScript(script: unknown, prompt = 'go', options: QueryOptions = {}): Promise<Run> {
  const server = await startFakeAnthropic({ script })
  const messages: SDKMessage[] = []
  let error: unknown
  try {
    const q = query({
      prompt,
      options: {
        bare: true, cwd: process.cwd(), mods: [toolsMod()],
        ...options,
        // options.env replaces the process's environment (as the SDK's does): the test's own is kept under it.
        env: { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test', MODLOOP_RETRY_BASE_MS: '1', ...options.env },
      },
    })
    for await (const m of q) messages.push(m)
  } catch (err) {
    error = err
  } finally {
    await server.close()
  }
  const result = messages.filter((m): m is SDKResultMessage => m.type === 'result').at(-1)!
  return { messages, result, requests: server.requests, error }
}

/** Every request's messages: each tool_use must be answered by a tool_result in the next message. */
export function assertNoDanglingToolUse(requests: { body: any }[]): void {
  for (const { body } of requests) {
    const msgs = body.messages as { role: string; content: any }[]
    msgs.forEach((m, i) => {
      if (m.role !== 'assistant' || typeof m.content === 'string') return
      const ids = m.content.filter((b: any) => b.type === 'tool_use').map((b: any) => b.id)
      if (ids.length === 0) return
      const next = msgs[i + 1]
      const answered = new Set((next?.content ?? []).filter((b: any) => b.type === 'tool_result').map((b: any) => b.tool_use_id))
      for (const id of ids) if (!answered.has(id)) throw new Error(`tool_use ${id} has no tool_result in the next message`)
    })
  }
}
