/** Aliases and the ids they stand for; `ANTHROPIC_DEFAULT_<ALIAS>_MODEL` overrides one. One table for /model, setModel() and $.model.complete. */
export const MODEL_ALIASES: Record<string, { id: string; description: string }> = {
  opus: { id: 'claude-opus-4-7', description: 'Opus: the most capable model, for complex work' },
  sonnet: { id: 'claude-sonnet-4-6', description: 'Sonnet: capable and quick, for everyday coding' },
  haiku: { id: 'claude-haiku-4-5', description: 'Haiku: the fastest, for simple tasks' },
}

/** An alias's model id, or the name itself when it is an id. */
export function resolveAlias(name: string, env: Record<string, string | undefined>): string {
  // Opus while planning, Sonnet for the rest: the session runs on Sonnet, plan mode's requests go to Opus.
  if (name.toLowerCase() === 'opusplan') return resolveAlias('sonnet', env)
  const alias = MODEL_ALIASES[name.toLowerCase()]
  if (!alias) return name
  return env[`ANTHROPIC_DEFAULT_${name.toUpperCase()}_MODEL`] || alias.id
}

/** The model of small side requests (`$.model.complete` with no model, prompt hooks): ANTHROPIC_SMALL_FAST_MODEL, else haiku. */
export function smallFastModel(env: Record<string, string | undefined>): string {
  return env.ANTHROPIC_SMALL_FAST_MODEL || resolveAlias('haiku', env)
}
