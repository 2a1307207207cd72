import { defineMod } from 'modloop'
import { z } from 'zod'

const options = z.object({
  /** The section to add the style to; core's default prompt has one section, `intro`. */
  section: z.string().default('intro'),
  style: z.string().default('House style: answer in British English, keep answers under five sentences, and never use emojis.'),
})

/**
 * Rewrites one section of the system prompt. prompt.section runs once per section per session,
 * so the rewritten text is stable across requests and the prompt cache stays warm.
 */
export default defineMod({
  name: 'house-style',
  description: 'Appends a house style to a system-prompt section',
  options,
  register(on, opts) {
    on('prompt.section', { name: opts.section }, async (_$, e, next) => {
      const r = await next(e)
      // A section another mod dropped (null) stays dropped.
      if (r.text === null) return r
      return { text: `${r.text}\n\n${opts.style}` }
    })
  },
})
