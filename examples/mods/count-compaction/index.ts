import { defineMod, type SessionMessage } from 'modloop'
import { z } from 'zod'

const options = z.object({
  /** Compact once the conversation holds this many messages (it starts over from one summary). */
  everyMessages: z.number().int().min(3).default(40),
  summaryMaxTokens: z.number().int().min(256).default(4_096),
})

type Complete = (req: { model?: string; prompt: string; system?: string; maxTokens?: number }) => Promise<{ isAnswered: true; text: string } | { isAnswered: false; reason: string }>

const textOf = (m: SessionMessage): string => {
  if (typeof m.content === 'string') return m.content
  const blocks = Array.isArray(m.content) ? (m.content as { type: string; text?: string; name?: string; input?: unknown; content?: unknown }[]) : []
  return blocks.map((b) => b.type === 'text' ? b.text
    : b.type === 'tool_use' ? `[called ${b.name} with ${JSON.stringify(b.input).slice(0, 500)}]`
    : b.type === 'tool_result' ? `[result: ${JSON.stringify(b.content).slice(0, 1_000)}]` : `[${b.type}]`).join('\n')
}

/**
 * A replacement for the built-in compaction mod (load it with `{ "name": "compaction", "enabled":
 * false }`): before a request, once the conversation holds `everyMessages` messages, it asks core
 * to compact; its own session.compact handler then has the model summarize all but the latest
 * exchange, which stays word for word so that tool calls keep their results.
 */
export default defineMod({
  name: 'count-compaction',
  description: 'Compacts the conversation every N messages into a model-written summary',
  options,
  register(on, opts) {
    on('turn.request', (_$, e, next) => (!e.compacted && e.messages.length >= opts.everyMessages ? { compact: {} } : next(e)))

    on('session.compact', async ($, e) => {
      // The latest exchange (a response and what answered it) is kept when it is one.
      const keep = e.messages.length >= 3 && e.messages.at(-2)!.role === 'assistant' ? 2 : 0
      const older = e.messages.slice(0, e.messages.length - keep)
      const complete = $.model.complete as Complete
      const r = await complete({
        model: $.session.model() as string,
        system: 'You summarize a coding agent\'s conversation so that the work can go on in a fresh context. Write only the summary.',
        prompt: `Summarize this conversation: what was asked, what was done and found, and what is left to do.${e.instructions ? ` Focus: ${e.instructions}` : ''}\n\n${older.map((m) => `${m.role}: ${textOf(m)}`).join('\n\n')}`,
        maxTokens: opts.summaryMaxTokens,
      })
      if (!r.isAnswered) return { skip: `the summary request ended: ${r.reason}`, isFailed: true }
      const summary: SessionMessage = { role: 'user', content: [{ type: 'text', text: `The conversation so far, summarized:\n\n${r.text}` }] }
      return { messages: [summary, ...e.messages.slice(e.messages.length - keep)] }
    }, { budgetMs: 600_000 })
  },
})
