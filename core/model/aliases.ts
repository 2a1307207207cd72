import { envTrue } from '../env.js'

/** Aliases and the ids they stand for; `ANTHROPIC_DEFAULT_<ALIAS>_MODEL` overrides one. One table for /model, setModel() and $.model.complete. */
export const MODEL_ALIASES: Record<string, { id: string; description: string }> = {
  // The ids Claude Code's aliases stand for, so `--model sonnet` is the same model in both.
  opus: { id: 'claude-opus-5-5', description: 'Opus: for everyday, complex work' },
  fable: { id: 'claude-fable-5-2', description: 'Fable: the most capable, for the hardest and longest-running tasks' },
  sonnet: { id: 'claude-sonnet-5-5', description: 'Sonnet: efficient, for routine tasks' },
  haiku: { id: 'claude-haiku-5-5', description: 'Haiku: the fastest, for quick answers' },
}

/**
 * Retired Opus 4 and 4.1 ids, which Claude Code silently sends as the current Opus (what `opus`
 * stands for): the API no longer serves them. Only these exact first-party ids, `[1m]` or not, and
 * not with CLAUDE_CODE_DISABLE_LEGACY_MODEL_REMAP on (a gateway that still serves them).
 */
const RETIRED_OPUS = new Set(['claude-opus-4-0', 'claude-opus-4-20250514', 'claude-opus-4-1', 'claude-opus-4-1-20250805'])

/** An alias's model id, or the name itself when it is an id (a retired Opus id: the current Opus's). */
export function resolveAlias(name: string, env: Record<string, string | undefined>): string {
  // Opus while planning, Sonnet for the rest: the session runs on Sonnet, plan mode's requests go to Opus.
  if (name.toLowerCase() === 'opusplan') return resolveAlias('sonnet', env)
  if (RETIRED_OPUS.has(name.toLowerCase().replace(/\[1m\]$/, '')) && !envTrue(env.CLAUDE_CODE_DISABLE_LEGACY_MODEL_REMAP)) return resolveAlias('opus', env)
  const alias = MODEL_ALIASES[name.toLowerCase()]
  if (!alias) return name
  return env[`ANTHROPIC_DEFAULT_${name.toUpperCase()}_MODEL`] || alias.id
}

/** The model of small side requests (`$.model.complete` with no model, prompt hooks): ANTHROPIC_SMALL_FAST_MODEL, else haiku. */
export function smallFastModel(env: Record<string, string | undefined>): string {
  return env.ANTHROPIC_SMALL_FAST_MODEL || resolveAlias('haiku', env)
}
