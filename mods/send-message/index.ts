import { z } from 'zod'
import { defineMod } from '../../core/mod/define.js'
import type { ToolContext, ToolOutput } from '../../core/tools/tool.js'
import { registerTool } from '../_shared/register-tool.js'
import '../_shared/subagents.js'
import * as T from './texts.js'
import { builtinInput } from '../_shared/builtin-input.js'

const sendInput = builtinInput('SendMessage', () => z.object({
  to: z.string().max(300).regex(/^[^\n\r]*$/, 'one line').describe(T.SEND_FIELDS.to),
  // Claude Code cuts a long summary rather than refusing the call.
  summary: z.string().transform((s) => s.slice(0, 200)).optional().describe(T.SEND_FIELDS.summary),
  message: z.string().default('').describe(T.SEND_FIELDS.message),
}))

const listInput = builtinInput('ListAgents', () => z.object({
  cursor: z.string().max(256).optional().describe(T.CURSOR_FIELD),
}))

const said = (success: boolean, message: string, extra?: Record<string, unknown>): ToolOutput => {
  const text = T.answer(success, message, extra)
  return { result: { success, message, ...extra }, text }
}

/**
 * SendMessage and ListAgents, as Claude Code offers them, for the session's own subagents: the
 * main conversation (or an agent) writes to a subagent by its id, and a subagent writes to
 * "main". Delivery and resuming are the agent mod's (`subagents`); a message for the main
 * conversation travels as a task's report does (`$.task.notify`). No other session is reachable.
 */
export default defineMod({
  name: 'send-message',
  description: 'SendMessage and ListAgents: messages between the main conversation and its subagents',
  uses: { subagents: 'optional' },
  register(on) {
    on('session.start', async ($, e, next) => {
      const agents = () => $.capability.use('subagents')?.(e.sessionId)

      const send = async (i: z.output<ReturnType<typeof sendInput>>, ctx: ToolContext): Promise<ToolOutput> => {
        const to = i.to.trim()
        if (to === 'main') {
          if (ctx.agentId === undefined) return said(false, T.MAIN_TO_MAIN)
          if (!$.task.notify(ctx.agentId, T.forMain(ctx.agentId, i.message))) return said(false, 'The main conversation takes no more messages: the session is ending.')
          return said(true, T.QUEUED_FOR_MAIN)
        }
        if (to === ctx.agentId) return said(false, `'${to}' is you: send to another agent, or to "main".`)
        const outcome = await agents()?.send(to, T.forAgent(ctx.agentId, i.message), ctx) ?? { unknown: true as const }
        if ('unknown' in outcome) return said(false, T.unknownAgent(to))
        if ('refused' in outcome) return said(false, outcome.refused)
        if ('delivered' in outcome) return said(true, T.queuedFor(outcome.delivered))
        return said(true, T.resuming(outcome.resumed), { resumedAgentId: outcome.resumed })
      }

      const list = (ctx: ToolContext): ToolOutput => {
        const rows = (agents()?.list() ?? []).filter((a) => a.agentId !== ctx.agentId)
        const text = T.listing(rows, Date.now())
        return { result: { agents: rows }, text }
      }

      await registerTool($, { name: 'SendMessage', description: T.SEND_DESCRIPTION, input: sendInput, isReadOnly: false, call: send })
      // A background subagent may write, but not list: Claude Code keeps only SendMessage for it (spec §7.3).
      await registerTool($, { name: 'ListAgents', description: T.LIST_DESCRIPTION, input: listInput, isReadOnly: true, traits: { foregroundOnly: true }, call: (_i, ctx) => list(ctx) })
      return next(e)
    })
  },
})
