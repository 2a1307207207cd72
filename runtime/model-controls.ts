import { ModloopError } from '../core/errors.js'
import { capabilitiesOf, clampEffort, EFFORT_LEVELS, requestedThinking, type EffortLevel } from '../core/model/capabilities.js'
import { MODEL_ALIASES, resolveAlias } from '../core/model/aliases.js'
import { defaultModelOf, switchModel } from '../core/loop/model-switch.js'
import { sessionEffort } from '../core/loop/session-effort.js'
import type { Session } from '../core/loop/session.js'
import type { ConfigSetResult, ConfigValue } from '../core/events/types.js'

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

/**
 * The default, the aliases, each with what its model accepts, and the gateway's own model when
 * ANTHROPIC_CUSTOM_MODEL_OPTION names one, as Claude Code's /model picker lists them. An alias
 * pinned by ANTHROPIC_DEFAULT_<ALIAS>_MODEL takes the name and description its `_NAME` and
 * `_DESCRIPTION` give; the custom entry is named by ANTHROPIC_CUSTOM_MODEL_OPTION_NAME (else its id)
 * and described by ANTHROPIC_CUSTOM_MODEL_OPTION_DESCRIPTION (else "Custom model (<id>)").
 */
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
  const env = session.env
  const set = (name: string) => env[name]?.trim() || undefined
  const fallback = defaultModelOf(session.root)
  const rows = [
    describe('default', fallback, 'Default', `The session's default model (${fallback})`),
    ...Object.entries(MODEL_ALIASES).map(([alias, a]) => {
      const id = resolveAlias(alias, env)
      const pin = `ANTHROPIC_DEFAULT_${alias.toUpperCase()}_MODEL`
      const pinned = set(pin) !== undefined
      return describe(alias, id, (pinned && set(`${pin}_NAME`)) || alias[0]!.toUpperCase() + alias.slice(1), (pinned && set(`${pin}_DESCRIPTION`)) || `${a.description} (${id})`)
    }),
  ]
  const custom = set('ANTHROPIC_CUSTOM_MODEL_OPTION')
  if (custom === undefined || rows.some((r) => r.value === custom)) return rows
  return [...rows, describe(custom, custom, set('ANTHROPIC_CUSTOM_MODEL_OPTION_NAME') ?? custom, set('ANTHROPIC_CUSTOM_MODEL_OPTION_DESCRIPTION') ?? `Custom model (${custom})`)]
}

/** `$.config.list()`: the rows the runtime keeps; `effort` is the effort asked for, as the current model is sent it (null when none was asked: the model's default goes, `defaultEffort`; or when the model takes none). */
export function configRows(session: Session): { key: string; value: unknown }[] {
  const root = session.root
  const thinking = requestedThinking(root.options, root.env)
  return [
    { key: 'model', value: root.model },
    { key: 'effort', value: clampEffort(root.model, sessionEffort(root, root.model), thinking?.type === 'disabled') ?? null },
  ]
}

/**
 * `$.config.set`: a mod changing the session on the person's behalf. `model` switches the model
 * (`/model`); `effort` sets the effort the requests that follow ask for (`/effort`), null for the
 * model's default — clamped to each request's model as the option is. Raises config.set (spec
 * mods §3.3), past the calling mod's own handlers; a value of the wrong kind is refused, before
 * the handlers and after them (one may have rewritten it). An unknown key rejects.
 */
export async function configSet(session: Session, mod: string, args: { key?: unknown; value?: unknown }): Promise<ConfigSetResult> {
  const key = args?.key
  if (key !== 'model' && key !== 'effort') {
    throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.config.set: unknown key "${String(key)}" (modloop keeps: model, effort)`, { mod, field: 'key' })
  }
  const value = (args.value ?? null) as ConfigValue
  const refused = wrongKind(key, value)
  if (refused) return { deny: refused }
  const previous = configRows(session).find((r) => r.key === key)!.value as ConfigValue
  const e = { key, value, previous, provider: 'core', origin: { kind: 'plugin' as const, name: mod } }
  return session.host.bus.emit('config.set', e, (e) => write(session, e.key as typeof key, e.value), { caller: mod })
}

async function write(session: Session, key: 'model' | 'effort', value: ConfigValue): Promise<ConfigSetResult> {
  const refused = wrongKind(key, value)
  if (refused) return { deny: refused }
  if (key === 'effort') {
    session.root.effort = (value ?? undefined) as EffortLevel | undefined
    return { value: session.root.effort ?? null }
  }
  const r = await switchModel(session, value as string | null, 'command')
  return 'deny' in r ? r : { value: r.model }
}

function wrongKind(key: 'model' | 'effort', value: unknown): string | undefined {
  if (value === null) return undefined
  if (key === 'model') return typeof value === 'string' ? undefined : `model must be a string or null, got ${JSON.stringify(value)}`
  return (EFFORT_LEVELS as readonly unknown[]).includes(value) ? undefined : `effort must be one of ${EFFORT_LEVELS.join(', ')} or null, got ${JSON.stringify(value)}`
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

