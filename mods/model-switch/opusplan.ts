import type { On } from '../../core/bus/types.js'
import type { ModApi } from '../../core/mod/api.js'
import { resolveAlias } from '../../core/model/aliases.js'

const isOpusplan = (name: unknown) => typeof name === 'string' && name.trim().toLowerCase() === 'opusplan'

/**
 * `opusplan`, as in Claude Code: the session runs on Sonnet (the alias resolves to it) and its
 * requests go to Opus while plan mode is on. A session is on it when it was launched so (`--model`,
 * ANTHROPIC_MODEL, the settings' `model`) or switched to it; another switch takes it off.
 */
export function opusplan(on: On): void {
  const planning = new Set<string>()
  on('session.start', async ($, e, next) => {
    const result = await next(e)
    // After next(): the settings env (ANTHROPIC_MODEL) and the settings' model are read by then.
    if (isOpusplan(await launchModel($, e.sessionId))) planning.add(e.sessionId)
    return result
  })
  on('model.switch', async ($, e, next) => {
    const r = await next(e)
    const id = $.session.id() as string
    if ('deny' in r || (e.source !== 'command' && e.source !== 'sdk')) return r
    if (isOpusplan(e.requested) || (e.requested === null && isOpusplan(await launchModel($, id)))) planning.add(id)
    else planning.delete(id)
    return r
  })
  // On the request as it is assembled, not in turn.step's stream: the main loop's rounds are all it
  // sees, and it adds no layer to every streamed round.
  on('model.request', ($, e, next) => {
    if (e.purpose !== 'turn' || e.agentId || !planning.has($.session.id() as string) || $.capability.use('permissionMode')?.mode() !== 'plan') return next(e)
    return next({ ...e, request: { ...e.request, model: resolveAlias('opus', $.env.all()) } })
  })
  on('session.end', (_$, e, next) => {
    planning.delete(e.sessionId)
    return next(e)
  })
}

/** The model name the session was launched on, as the runtime ranks them: the launch option, ANTHROPIC_MODEL, the settings' `model`. */
async function launchModel($: ModApi, sessionId: string): Promise<string | undefined> {
  let flags: { model?: unknown } = {}
  try {
    flags = ((await $.settings.read({ source: 'flag' })) ?? {}) as typeof flags
  } catch {
    // A host without launch flags.
  }
  if (typeof flags.model === 'string') return flags.model
  return $.env.get('ANTHROPIC_MODEL') ?? $.capability.use('settingsModel')?.(sessionId)
}
