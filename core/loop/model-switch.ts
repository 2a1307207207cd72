import { ModloopError } from '../errors.js'
import type { ModelSwitchInput, ModelSwitchResult } from '../events/types.js'
import { attach } from './attach.js'
import { capabilitiesOf, clampEffort, requestedThinking, type EffortLevel } from '../model/capabilities.js'
import { costUsd, modelInfo } from '../model/pricing.js'
import { MODEL_ALIASES, resolveAlias } from '../model/aliases.js'
import { DEFAULT_MODEL } from './options.js'
import type { Session } from './session.js'
import { recordUnshown } from './unshown.js'

/** What `Query.supportedModels()` lists (the Agent SDK's ModelInfo). */
export interface ModelInfo {
  value: string
  displayName: string
  description: string
  supportsEffort?: boolean
  supportedEffortLevels?: EffortLevel[]
  supportsAdaptiveThinking?: boolean
}

/** The model a session goes back to for `setModel()` with no name: what it would have started with. */
export function defaultModelOf(session: Session): string {
  return session.options.model ?? session.env.ANTHROPIC_MODEL ?? DEFAULT_MODEL
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

/** The model a turn goes on with when `model` fails or refuses: the fallback model, unless there is none or a mod refused the switch. */
export async function fallBack(session: Session, model: string): Promise<string | undefined> {
  const fallback = session.options.fallbackModel
  if (!fallback || fallback === model) return undefined
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

/**
 * Before a request of the main conversation: context model.switch handlers returned joins the
 * last user message as attachments (recorded as a synthetic addition), once.
 */
export async function deliverSwitchContext(session: Session): Promise<void> {
  const root = session.root
  if (session.agent || root.switchContext.length === 0) return
  const blocks = await attach(session, 'model_switch_context', root.switchContext.splice(0), { kind: 'plugin', event: 'model.switch' })
  if (blocks.length === 0) return
  const last = session.messages.at(-1)
  if (last?.role === 'user') last.content = [...(typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content), ...blocks]
  else session.messages.push({ role: 'user', content: blocks })
  await recordUnshown(session, blocks, true)
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

/** The aliases, each with what its model accepts, and the default. */
export function supportedModels(session: Session): ModelInfo[] {
  const describe = (value: string, id: string, displayName: string, description: string): ModelInfo => {
    const can = capabilitiesOf(id)
    return {
      value, displayName, description,
      supportsEffort: can.effort.length > 0,
      ...(can.effort.length > 0 ? { supportedEffortLevels: [...can.effort] } : {}),
      supportsAdaptiveThinking: can.thinking.includes('adaptive'),
    }
  }
  const fallback = defaultModelOf(session.root)
  return [
    describe('default', fallback, 'Default', `The session's default model (${fallback})`),
    ...Object.entries(MODEL_ALIASES).map(([alias, a]) => {
      const id = resolveAlias(alias, session.env)
      return describe(alias, id, alias[0]!.toUpperCase() + alias.slice(1), `${a.description} (${id})`)
    }),
  ]
}

/** `$.config.list()`: the rows core keeps; `effort` is what the current model is sent (absent when it takes none). */
export function configRows(session: Session): { key: string; value: unknown }[] {
  const root = session.root
  const thinking = requestedThinking(root.options)
  return [
    { key: 'model', value: root.model },
    { key: 'effort', value: clampEffort(root.model, root.options.effort, thinking?.type === 'disabled') ?? null },
  ]
}

/** `$.config.set({ key: 'model', value })`: a mod switching the model on the person's behalf (e.g. `/model`). */
export async function configSet(session: Session, mod: string, args: { key?: unknown; value?: unknown }): Promise<{ value: unknown } | { deny: string }> {
  if (args?.key !== 'model') {
    throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.config.set: unknown key "${String(args?.key)}" (modloop keeps: model)`, { mod, field: 'key' })
  }
  if (args.value !== null && args.value !== undefined && typeof args.value !== 'string') {
    throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.config.set: model must be a string or null`, { mod, field: 'value' })
  }
  const r = await switchModel(session, args.value ?? null, 'command')
  return 'deny' in r ? r : { value: r.model }
}

/** The Query methods of model choice (the Agent SDK's setModel and supportedModels). */
export interface ModelControls {
  /** Switches the model for the requests that follow (no name: back to the default); rejects when a mod denies it. */
  setModel(model?: string): Promise<void>
  supportedModels(): Promise<ModelInfo[]>
}

export function modelControls(current: () => Session | undefined): ModelControls {
  const opened = (method: string): Session => {
    const session = current()
    if (!session) throw new ModloopError('MODLOOP_ERR_USAGE', `Query.${method}: the session is not open yet; call it once the first message arrived`)
    return session
  }
  return {
    async setModel(model?: string) {
      const r = await switchModel(opened('setModel'), model ?? null, 'sdk')
      if ('deny' in r) throw new ModloopError('MODLOOP_ERR_USAGE', `setModel(${model === undefined ? '' : JSON.stringify(model)}) was refused: ${r.deny}`, { field: 'model' })
    },
    async supportedModels() {
      return supportedModels(opened('supportedModels'))
    },
  }
}

export { resolveAlias }
