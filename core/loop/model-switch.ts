import { ModloopError } from '../errors.js'
import type { ModelSwitchInput, ModelSwitchResult } from '../events/types.js'
import { costUsd, modelInfo } from '../model/pricing.js'
import { resolveAlias } from '../model/aliases.js'
import { DEFAULT_MODEL } from './session-options.js'
import type { Session } from './session.js'

/**
 * The model a session starts on when no option or config names one, and goes back to for
 * `setModel()` with no name: the launch's, else ANTHROPIC_MODEL (the settings' env blocks
 * included), else the settings' `model`, as Claude Code ranks them.
 */
export function defaultModelOf(session: Session): string {
  const named = session.options.model ?? session.env.ANTHROPIC_MODEL ?? session.host.capabilities.get('settingsModel')?.(session.root.id)
  return resolveAlias(named ?? DEFAULT_MODEL, session.env)
}

/**
 * Switches the root session's model for the requests that follow, through `model.switch`: a
 * handler may deny (the model stays) or rewrite `to`; beneath them all the switch takes place.
 * The next request of a running turn already goes to the new model.
 */
export async function switchModel(session: Session, requested: string | null, source: ModelSwitchInput['source']): Promise<{ model: string } | { deny: string }> {
  const root = session.root
  const name = requested?.trim() || null
  if (name !== null && !/^[\w.:@/[\]-]{1,200}$/.test(name)) {
    throw new ModloopError('MODLOOP_ERR_USAGE', `model switch: "${name}" is not a model name or alias`, { field: 'model' })
  }
  const to = name === null || name === 'default' ? defaultModelOf(root) : resolveAlias(name, root.env)
  const e = switchPayload(root, root.model, to, name === 'default' ? null : name, source)
  return raise(root, e, (e2) => {
    root.model = e2.to
    return { model: e2.to }
  })
}

/**
 * A switch the session makes itself, raised so mods see (and may refuse) it: `auto`, the
 * fallback model taking over the rest of a turn from `from` (the session's model stays, so the
 * next turn goes back to it); `resume`, a resumed session going on with another model than the
 * one it starts on. A refused fallback is not taken; a refused resume switch keeps `from`.
 */
export async function switchItself(session: Session, from: string, to: string, source: 'auto' | 'resume'): Promise<{ model: string } | { deny: string }> {
  const root = session.root
  return raise(root, switchPayload(root, from, to, to, source), (e2) => {
    if (source === 'resume') root.model = e2.to
    return { model: e2.to }
  }, !session.agent)
}

/** The fallback model that would take over from `model`, if there is one. */
export function fallbackFor(session: Session, model: string): string | undefined {
  const fallback = session.options.fallbackModel && resolveAlias(session.options.fallbackModel, session.env)
  return fallback && fallback !== model ? fallback : undefined
}

/** The model a turn goes on with when `model` fails or refuses: the fallback model, unless there is none or a mod refused the switch. */
export async function fallBack(session: Session, model: string): Promise<string | undefined> {
  const fallback = fallbackFor(session, model)
  if (!fallback) return undefined
  const r = await switchItself(session, model, fallback, 'auto')
  return 'deny' in r ? undefined : r.model
}

/**
 * Raises model.switch; context a handler returned waits for the next request of the main
 * conversation (a subagent's own fallback has no place to put it, so it is dropped).
 */
async function raise(root: Session, e: ModelSwitchInput, beneath: (e: ModelSwitchInput) => ModelSwitchResult, keepContext = true): Promise<{ model: string } | { deny: string }> {
  const r = await root.host.bus.emit('model.switch', e, beneath)
  if ('deny' in r) return r
  const texts = (r.context ?? []).filter((c) => typeof c === 'string' && c !== '')
  if (keepContext) root.switchContext.push(...texts)
  return { model: r.model }
}

function switchPayload(session: Session, from: string, to: string, requested: string | null, source: ModelSwitchInput['source']): ModelSwitchInput {
  // The context as the meter counts it: the new model has no cache, so all of it is written again.
  const tokens = session.meter.tokens()
  const warm = to === from
  return {
    from, to, requested, source, contextTokens: tokens, promptCacheWarm: warm, cacheTtl: '5m',
    estimatedCacheWriteUsd: warm ? 0 : costUsd(to, { cache_creation_input_tokens: tokens }),
    pricing: modelInfo(to).family === 'default' ? 'default' : 'catalog',
  }
}

export { resolveAlias }
