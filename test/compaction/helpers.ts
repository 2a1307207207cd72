import { z } from 'zod'
import type { ModDefinition } from '../../core/mod/define.js'
import { defineMod } from '../../core/mod/define.js'
import type { SDKMessage } from '../../core/loop/messages.js'
import compaction from '../../mods/compaction/index.js'

/** The compaction mod with options, as a config would give them. */
export function compactionWith(options: Record<string, unknown> = {}): ModDefinition {
  const schema = compaction.options!
  return { ...compaction, options: undefined, register: (on, _o, $) => compaction.register(on, schema.parse(options), $) } as ModDefinition
}

/** Big: a read-only tool whose result is `n` characters (tagged, so a test can find it). */
export const bigTool = defineMod({
  name: 'big-tool',
  register(on) {
    on('session.start', async ($, e, next) => {
      await $.tool.register({
        name: 'Big', description: 'Returns n characters', isReadOnly: true,
        input: z.object({ n: z.number(), tag: z.string() }),
        call: (i: { n: number; tag: string }) => ({ result: `<${i.tag}>${'x'.repeat(Math.max(0, i.n - i.tag.length * 2 - 5))}</${i.tag}>` }),
      } as never)
      return next(e)
    })
  },
})

export const big = (tag: string, n = 8_000) => ({ reply: [{ tool_use: { name: 'Big', input: { n, tag } } }] })
export const summary = (text: string) => ({ reply: text })

/** The instruction a summary asked over the conversation itself (a fork) starts with. */
export const FORK_INSTRUCTION = 'Stop the work here and write a summary of this conversation'

const lastText = (body: any): string => {
  const c = body.messages?.at(-1)?.content
  return typeof c === 'string' ? c : Array.isArray(c) ? String(c.at(-1)?.text ?? '') : ''
}

/** A summary forked from the conversation ends on the instruction; one asked over its rendering carries no tools. */
export const isForkedSummary = (r: { body: any }) => lastText(r.body).startsWith(FORK_INSTRUCTION)
export const isRenderedSummary = (r: { body: any }) => !Array.isArray(r.body.tools) || r.body.tools.length === 0
export const isSummaryRequest = (r: { body: any }) => isForkedSummary(r) || isRenderedSummary(r)
export const mainRequests = <T extends { body: any }>(rs: T[]) => rs.filter((r) => !isSummaryRequest(r))

/** A request's size as the fake server counts it (four characters a token). */
export const requestTokens = (r: { body: any }) => Math.ceil(JSON.stringify([r.body.system, r.body.messages, r.body.tools]).length / 4)

export const boundaries = (messages: SDKMessage[]) => messages.filter((m) => m.type === 'system' && m.subtype === 'compact_boundary') as (SDKMessage & { compact_metadata: { trigger: string; pre_tokens: number; post_tokens: number; duration_ms: number } })[]

export const firstUserText = (r: { body: any }) => {
  const c = r.body.messages[0].content
  return typeof c === 'string' ? c : c.map((b: any) => b.text ?? '').join('\n')
}
