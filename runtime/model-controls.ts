import { ModloopError } from '../core/errors.js'
import { capabilitiesOf, clampEffort, EFFORT_LEVELS, requestedThinking, type EffortLevel } from '../core/model/capabilities.js'
import { MODEL_ALIASES, resolveAlias } from '../core/model/aliases.js'
import { defaultModelOf, switchModel } from '../core/loop/model-switch.js'
import type { Session } from '../core/loop/session.js'

/** What `Query.supportedModels()` lists (the Agent SDK's ModelInfo). */
export interface ModelInfo {
  value: string
  /** The model id `value` stands for, so a host can match a stored id against its alias's row. */
  resolvedModel: string
  displayName: string
  description: string
  supportsEffort?: boolean
  supportedEffortLevels?: EffortLevel[]
  supportsAdaptiveThinking?: boolean
}

/** The aliases, each with what its model accepts, and the default. */
export function supportedModels(session: Session): ModelInfo[] {
  const describe = (value: string, id: string, displayName: string, description: string): ModelInfo => {
    const can = capabilitiesOf(id)
    return {
      value, resolvedModel: id, displayName, description,
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

/** `$.config.list()`: the rows the runtime keeps; `effort` is the effort asked for, as the current model is sent it (null when none was asked: the model's default goes, `defaultEffort`; or when the model takes none). */
export function configRows(session: Session): { key: string; value: unknown }[] {
  const root = session.root
  const thinking = requestedThinking(root.options, root.env)
  return [
    { key: 'model', value: root.model },
    { key: 'effort', value: clampEffort(root.model, root.effort, thinking?.type === 'disabled') ?? null },
  ]
}

/**
 * `$.config.set`: a mod changing the session on the person's behalf. `model` switches the model
 * (`/model`); `effort` sets the effort the requests that follow ask for (`/effort`), null for the
 * model's default — clamped to each request's model as the option is.
 */
export async function configSet(session: Session, mod: string, args: { key?: unknown; value?: unknown }): Promise<{ value: unknown } | { deny: string }> {
  if (args?.key === 'effort') return { value: setEffort(session, mod, args.value) }
  if (args?.key !== 'model') {
    throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.config.set: unknown key "${String(args?.key)}" (modloop keeps: model, effort)`, { mod, field: 'key' })
  }
  if (args.value !== null && args.value !== undefined && typeof args.value !== 'string') {
    throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.config.set: model must be a string or null`, { mod, field: 'value' })
  }
  const r = await switchModel(session, args.value ?? null, 'command')
  return 'deny' in r ? r : { value: r.model }
}

function setEffort(session: Session, mod: string, value: unknown): EffortLevel | null {
  if (value !== null && value !== undefined && !(EFFORT_LEVELS as readonly unknown[]).includes(value)) {
    throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.config.set: effort must be one of ${EFFORT_LEVELS.join(', ')} or null`, { mod, field: 'value' })
  }
  session.root.effort = (value ?? undefined) as EffortLevel | undefined
  return session.root.effort ?? null
}

/** The Query methods of model choice (the Agent SDK's setModel and supportedModels). */
export interface ModelControls {
  /** Switches the model for the requests that follow (no name: back to the default); rejects when a mod denies it. */
  setModel(model?: string): Promise<void>
  supportedModels(): Promise<ModelInfo[]>
}

/** `open`: the session, opened first if the query has not opened it yet. */
export function modelControls(open: () => Promise<Session>): ModelControls {
  return {
    async setModel(model?: string) {
      const r = await switchModel(await open(), model ?? null, 'sdk')
      if ('deny' in r) throw new ModloopError('MODLOOP_ERR_USAGE', `setModel(${model === undefined ? '' : JSON.stringify(model)}) was refused: ${r.deny}`, { field: 'model' })
    },
    async supportedModels() {
      return supportedModels(await open())
    },
  }
}

