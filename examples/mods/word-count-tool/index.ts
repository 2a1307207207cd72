import { defineMod } from 'modloop'
import { z } from 'zod'

const input = z.object({ text: z.string().describe('The text to count') })

/**
 * Adds a tool. `$.tool.register` with a JSON Schema declares it to the model as
 * `mcp__word-count__WordCount`; this mod answers the calls to it in its own tool.call handler.
 */
export default defineMod({
  name: 'word-count',
  description: 'A WordCount tool: words, lines and characters of a text',
  register(on) {
    on('session.start', async ($, e, next) => {
      await $.tool.register({
        name: 'WordCount',
        description: 'Counts the words, lines and characters of a text.',
        inputSchema: z.toJSONSchema(input) as Record<string, unknown>,
        isReadOnly: true,
      })
      return next(e)
    })

    on('tool.call', { tool: 'mcp__word-count__WordCount' }, async (_$, e) => {
      const parsed = input.safeParse(e)
      if (!parsed.success) return { result: `WordCount: ${parsed.error.issues[0]?.message}`, isError: true }
      const { text } = parsed.data
      const counts = { words: text.split(/\s+/).filter(Boolean).length, lines: text === '' ? 0 : text.split('\n').length, characters: text.length }
      return { result: counts, text: `${counts.words} words, ${counts.lines} lines, ${counts.characters} characters` }
    })
  },
})
