import type { On } from '../../core/bus/types.js'
import type { ModApi } from '../../core/mod/api.js'
import { parseMentions } from '../../core/loop/mentions.js'
import type { PromptCommand } from './definitions.js'

/**
 * Where the `@file` references of a command body are written, so a mention that attaches nothing
 * names its command file and line (`prompt.mention`'s `from`) rather than leaving the person to
 * search for it. Noted when the command runs; forgotten at the next prompt.
 */
export function mentionOrigins(on: On): { note($: ModApi, def: PromptCommand): void } {
  const bySession = new Map<string, Map<string, string>>()

  on('prompt.submit', ($, e, next) => {
    bySession.delete($.session.id() as string)
    return next(e)
  })

  on('prompt.mention', ($, e, next) => {
    const from = e.from ?? bySession.get($.session.id() as string)?.get(e.mention)
    return next(from === undefined || from === e.from ? e : { ...e, from })
  })

  on('session.end', (_$, e, next) => {
    bySession.delete(e.sessionId)
    return next(e)
  })

  return {
    note($, def) {
      const origins = new Map<string, string>()
      def.body.split('\n').forEach((line, i) => {
        for (const m of parseMentions(line, '/')) if (!origins.has(m.mention)) origins.set(m.mention, `${def.file}:${def.bodyLine + i}`)
      })
      bySession.set($.session.id() as string, origins)
    },
  }
}
