import { ModloopError } from '../core/errors.js'
import { switchModel } from '../core/loop/model-switch.js'
import { DEFAULT_MODEL } from '../core/loop/session-options.js'
import type { Session } from '../core/loop/session.js'
import { EFFORT_LEVELS, type EffortLevel } from '../core/model/capabilities.js'

// What Query.applyFlagSettings merged into each session's flag layer, by the root session.
const applied = new WeakMap<Session, Record<string, unknown>>()

/**
 * The settings applyFlagSettings merged, as one more inline `--settings` layer after the query's
 * own (the flag layer's last word): what every reader of the settings sees from its next read.
 */
export function appliedFlagSettings(session: Session): string[] {
  const layer = applied.get(session.root)
  return layer && Object.keys(layer).length > 0 ? [JSON.stringify(layer)] : []
}

/**
 * Query.applyFlagSettings: merges `settings` into the flag layer, a top-level key at a time (a
 * later call's `permissions` replaces an earlier one's whole), `null` taking a key out. The
 * permission rules are read again at the next tool call, the `env` blocks at the next turn or tool
 * call (the mods that own them compare the flag layer they read: mods/_shared/launch-flags.ts);
 * `model` switches the model for the requests that follow (null: modloop's default model),
 * `effortLevel` sets the effort they ask for (null: the model's default, over the settings files'
 * level too; `max` for this session only, kept out of the layer as settings files may not hold it). A value of the wrong kind for one of
 * these rejects the whole call, and nothing of it applies. Other keys are there for each reader's
 * next read of the settings (most read them as a session starts: after /clear).
 */
export async function applyFlagSettings(session: Session, settings: unknown): Promise<void> {
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) {
    throw new ModloopError('MODLOOP_ERR_USAGE', `applyFlagSettings: settings must be an object of settings keys, got ${settings === null ? 'null' : Array.isArray(settings) ? 'an array' : typeof settings}`, { field: 'settings' })
  }
  const given = settings as Record<string, unknown>
  const refused = wrongKind(given)
  if (refused) throw new ModloopError('MODLOOP_ERR_USAGE', `applyFlagSettings: ${refused}; nothing of this call was applied`, { field: 'settings' })
  if (given.model !== undefined) {
    // null: Claude Code's default model, not the launch's, ANTHROPIC_MODEL's or the settings'.
    const r = await switchModel(session, (given.model as string | null) ?? DEFAULT_MODEL, 'sdk')
    if ('deny' in r) throw new ModloopError('MODLOOP_ERR_USAGE', `applyFlagSettings: the model switch was refused: ${r.deny}; nothing of this call was applied`, { field: 'model' })
  }
  // null: the model's own default, over the settings files' effortLevel too, as Claude Code resets it.
  if (given.effortLevel !== undefined) session.root.effort = given.effortLevel as EffortLevel | null
  const layer = { ...applied.get(session.root) }
  for (const [key, value] of Object.entries(given)) {
    // `max` is for the session alone, as `/effort max` is: no settings layer may keep it.
    if (value === null || (key === 'effortLevel' && value === 'max')) delete layer[key]
    // `undefined` does not survive the SDK's JSON either: it changes nothing.
    else if (value !== undefined) layer[key] = value
  }
  applied.set(session.root, layer)
}

/** Why a key the session acts on at once has a value it cannot take; undefined when all can. */
function wrongKind(s: Record<string, unknown>): string | undefined {
  if (s.model != null && typeof s.model !== 'string') return `model must be a model name or null, got ${JSON.stringify(s.model)}`
  if (s.effortLevel != null && !(EFFORT_LEVELS as readonly unknown[]).includes(s.effortLevel)) {
    return `effortLevel must be one of ${EFFORT_LEVELS.join(', ')} or null, got ${JSON.stringify(s.effortLevel)}`
  }
  const p = s.permissions
  if (p == null) return undefined
  if (typeof p !== 'object' || Array.isArray(p)) return `permissions must be an object, got ${JSON.stringify(p)}`
  for (const list of ['allow', 'deny', 'ask', 'additionalDirectories'] as const) {
    const rules = (p as Record<string, unknown>)[list]
    if (rules !== undefined && (!Array.isArray(rules) || rules.some((r) => typeof r !== 'string'))) return `permissions.${list} must be a list of strings, got ${JSON.stringify(rules)}`
  }
  return undefined
}
