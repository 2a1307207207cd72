import { z } from 'zod'
import { STAGE } from '../../core/bus/types.js'
import { defineMod } from '../../core/mod/define.js'
import type { PromptSection } from '../../core/events/types.js'
import type { ModApi } from '../../core/mod/api.js'
import { placeSections } from '../../core/loop/prompt.js'
import { fromRecord, toRecord, type Snapshot } from './record.js'
import { builtinOptions } from '../_shared/builtin-options.js'

const options = builtinOptions('prompt-snapshot', () => z.object({
  /**
   * Whether to record when neither `--system-prompt-snapshot` nor query()'s `systemPrompt.snapshot`
   * says: `on`, as Claude Code; the minimal distribution (`--bare`) has `off`.
   */
  default: z.enum(['on', 'off']).default('on'),
}))

interface Conversation {
  on: boolean
  snapshot?: Snapshot
  /** The snapshot came from the conversation this one was forked from: its transcript does not hold it yet. */
  unwritten?: boolean
}

/**
 * The system prompt recorded once per conversation: the first request of the main conversation
 * renders it (every mod's sections, `--append-system-prompt` included), sends it, and records it
 * in the transcript (an attachment line of type `prompt_snapshot`); every later request and a
 * resumed session send the record as it is, whatever the later launch's flags say, until a
 * compaction or a switch of model (the prompt names the model). Off, the prompt is rendered on
 * every request. Subagents render their own.
 */
export default defineMod({
  name: 'prompt-snapshot',
  description: 'Records the system prompt once per conversation and sends it verbatim on later requests and resumes',
  options,
  uses: { transcripts: 'optional' },
  register(on, opts) {
    const conversations = new Map<string, Conversation>()

    on('session.start', async ($, e, next) => {
      const on = (await flag($) ?? opts.default) === 'on'
      const snapshot = on ? fromRecord(e.resumedFrom?.attachments?.prompt_snapshot) : undefined
      conversations.set(e.sessionId, { on, ...(snapshot ? { snapshot, unwritten: e.source === 'fork' } : {}) })
      return next(e)
    })

    // Outermost: the record is what every other mod's sections made, and answers before them.
    on('prompt.compose', async ($, e, next) => {
      const sessionId = $.session.id() as string
      const c = conversations.get(sessionId)
      if (!c?.on || e.agentId) return next(e)
      if (c.snapshot && c.snapshot.model === e.model) {
        if (c.unwritten) record($, sessionId, c.snapshot)
        c.unwritten = false
        return { sections: c.snapshot.sections.map((s) => ({ ...s })) }
      }
      const r = await next(e)
      // As sent: the record reads in the order of the request's blocks.
      c.snapshot = { model: e.model, sections: placeSections(r.sections).map((s: PromptSection) => ({ ...s })) }
      c.unwritten = false
      record($, sessionId, c.snapshot)
      return r
    }, { stage: STAGE.guard })

    // A compaction starts the conversation afresh: its next request renders the prompt again.
    on('session.message', ($, e, next) => {
      if (!e.agentId && e.message.type === 'system' && e.message.subtype === 'compact_boundary') {
        const c = conversations.get($.session.id() as string)
        if (c) delete c.snapshot
      }
      return next(e)
    })

    on('session.end', (_$, e, next) => {
      conversations.delete(e.sessionId)
      return next(e)
    })
  },
})

/** `--system-prompt-snapshot`, or query()'s `systemPrompt.snapshot`, as the launch options carry it. */
async function flag($: ModApi): Promise<'on' | 'off' | undefined> {
  const flags = (await $.settings.read({ source: 'flag' })) as { systemPromptSnapshot?: unknown } | undefined
  const v = flags?.systemPromptSnapshot
  return v === 'on' || v === 'off' ? v : undefined
}

function record($: ModApi, sessionId: string, snapshot: Snapshot): void {
  $.capability.use('transcripts')?.attach(sessionId, toRecord(snapshot))
}
