import { stat } from 'node:fs/promises'
import { extname, resolve } from 'node:path'
import { z } from 'zod'
import { defineMod } from '../../core/mod/define.js'
import type { ToolContext, ToolOutput } from '../../core/tools/tool.js'
import { builtinInput } from '../_shared/builtin-input.js'
import { failure, registerTool } from '../_shared/register-tool.js'
import * as T from './texts.js'

// Built on first use, as the tool's input is: brief mode is off in most runs.
const briefInput = builtinInput('SendUserMessage', () => z.object({
  message: z.string().describe(T.FIELDS.message),
  attachments: z.array(z.union([z.string(), z.object({
    file_uuid: z.string(), file_name: z.string(), size: z.number(), is_image: z.boolean(), media_type: z.string().optional(),
  }).strict()])).optional().describe(T.FIELDS.attachments),
  status: z.enum(['normal', 'proactive']).describe(T.FIELDS.status),
}).strict())

type BriefInput = z.output<ReturnType<typeof briefInput>>

const IMAGES = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp'])

/**
 * Claude Code's brief mode (`--brief`, or CLAUDE_CODE_BRIEF=1): the SendUserMessage tool, through
 * which the model talks to the user, a system-prompt section saying so, and one reminder a turn
 * when the main agent would end it without a SendUserMessage call that went through. The message
 * is the tool's result (`tool_use_result`); what -p prints is still the final text.
 */
export default defineMod({
  name: 'brief',
  description: 'Brief mode: the SendUserMessage tool, turned on by --brief',
  register(on) {
    // Per session: whether the turn's last SendUserMessage call went through, and whether it was reminded.
    const sessions = new Map<string, { sent: boolean; reminded: boolean }>()

    on('session.start', async ($, e, next) => {
      const flags = (await $.settings.read({ source: 'flag' })) as { brief?: boolean }
      if (!flags.brief && !/^(1|true)$/i.test($.env.get('CLAUDE_CODE_BRIEF') ?? '')) return next(e)
      const state = { sent: false, reminded: false }
      sessions.set(e.sessionId, state)
      await registerTool($, {
        name: T.TOOL_NAME, description: T.DESCRIPTION, input: briefInput, isReadOnly: true,
        call: send,
      })
      return next(e)
    })

    on('prompt.compose', async ($, e, next) => {
      const r = await next(e)
      if (!sessions.has($.session.id()) || e.agentId || !e.tools.includes(T.TOOL_NAME)) return r
      return { sections: [...r.sections, { id: 'brief', text: T.SECTION, scope: 'session' }] }
    })

    on('turn.start', ($, e, next) => {
      const state = sessions.get($.session.id())
      if (state) Object.assign(state, { sent: false, reminded: false })
      return next(e)
    })

    // The turn's last call decides, whatever failed it: its input, its permission, or the tool itself.
    on('tool.batch', ($, e, next) => {
      const state = sessions.get($.session.id())
      const last = e.calls.filter((c) => c.tool === T.TOOL_NAME).at(-1)
      if (state && last && !e.agentId) state.sent = !last.isError
      return next(e)
    })

    // Stop hooks beneath decide first; only a turn that would really end unheard is reminded, once.
    on('turn.stop', async ($, e, next) => {
      const r = await next(e)
      const state = sessions.get($.session.id())
      if (!state || state.sent || state.reminded || e.agentId || r.decision !== 'stop') return r
      state.reminded = true
      return { decision: 'continue', reason: T.REMINDER }
    })

    on('session.end', (_$, e, next) => {
      sessions.delete(e.sessionId)
      return next(e)
    })
  },
})

/** Delivers the message: each attachment given by path must exist; an uploaded file's object passes as it is. */
async function send(input: BriefInput, ctx: ToolContext): Promise<ToolOutput> {
  const attachments: Record<string, unknown>[] = []
  for (const a of input.attachments ?? []) {
    if (typeof a !== 'string') {
      attachments.push(a)
      continue
    }
    const path = resolve(ctx.cwd, a)
    const found = await stat(path).catch(() => undefined)
    if (!found?.isFile()) return failure(T.missing(a, ctx.cwd))
    attachments.push({ path, size: found.size, isImage: IMAGES.has(extname(path).toLowerCase()) })
  }
  const result = { message: input.message, ...(attachments.length ? { attachments } : {}), sentAt: new Date().toISOString() }
  return { result, text: T.delivered(attachments.length) }
}
