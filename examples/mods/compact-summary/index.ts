import { defineMod, type SessionMessage } from 'modloop'
import { z } from 'zod'

const options = z.object({
  /** How many of the latest messages stay word for word. */
  keep: z.number().int().min(0).default(4),
})

type Block = { type?: string; text?: string; name?: string; input?: Record<string, unknown> }

const blocksOf = (m: SessionMessage): Block[] => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? (m.content as Block[]) : [])

/**
 * A custom compaction: answers session.compact without a model call. The older messages become
 * one summary message (the first request, the tools used, the files touched); the latest stay.
 */
export default defineMod({
  name: 'compact-summary',
  description: 'Compacts the conversation into a rule-based summary plus the latest messages',
  options,
  register(on, opts) {
    on('session.compact', async (_$, e) => {
      if (e.messages.length <= opts.keep) return { skip: `only ${e.messages.length} messages; nothing to compact` }
      // Keep whole exchanges: the kept part starts at a prompt, never at a tool result cut from its call.
      let cut = e.messages.length - opts.keep
      while (cut < e.messages.length && (e.messages[cut]!.role !== 'user' || blocksOf(e.messages[cut]!).some((b) => b.type === 'tool_result'))) cut++
      if (cut === e.messages.length) return { skip: 'no prompt among the latest messages to keep from' }
      const older = e.messages.slice(0, cut)
      const blocks = older.flatMap(blocksOf)
      const firstRequest = blocksOf(older.find((m) => m.role === 'user') ?? { role: 'user', content: '' }).find((b) => b.type === 'text')?.text ?? ''
      const tools = [...new Set(blocks.filter((b) => b.type === 'tool_use').map((b) => b.name))]
      const files = [...new Set(blocks.flatMap((b) => (b.type === 'tool_use' && typeof b.input?.file_path === 'string' ? [b.input.file_path] : [])))]
      const summary = [
        `Summary of the ${older.length} earlier messages${e.instructions ? ` (focus: ${e.instructions})` : ''}:`,
        `- The user first asked: ${firstRequest.slice(0, 500)}`,
        tools.length > 0 ? `- Tools used: ${tools.join(', ')}` : '- No tools were used.',
        ...(files.length > 0 ? [`- Files touched: ${files.join(', ')}`] : []),
      ].join('\n')
      return { messages: [{ role: 'user', content: [{ type: 'text', text: summary }] }, ...e.messages.slice(cut)] }
    })
  },
})
