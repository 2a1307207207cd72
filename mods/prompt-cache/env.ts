import { envTrue as isOn } from '../../core/env.js'

/** The model families with a switch of their own: `DISABLE_PROMPT_CACHING_HAIKU` and so on. */
const FAMILIES = ['haiku', 'sonnet', 'opus', 'fable'] as const

/** Caching is off for every model (`DISABLE_PROMPT_CACHING`), or for this model's family. */
export function cachingDisabled(env: (name: string) => string | undefined, model: string): boolean {
  if (isOn(env('DISABLE_PROMPT_CACHING'))) return true
  const id = model.toLowerCase()
  return FAMILIES.some((f) => id.includes(f) && isOn(env(`DISABLE_PROMPT_CACHING_${f.toUpperCase()}`)))
}

/** `FORCE_PROMPT_CACHING_5M` wins, then `ENABLE_PROMPT_CACHING_1H`, then the mod's option. */
export function cacheTtl(env: (name: string) => string | undefined, option: '5m' | '1h'): '5m' | '1h' {
  if (isOn(env('FORCE_PROMPT_CACHING_5M'))) return '5m'
  return isOn(env('ENABLE_PROMPT_CACHING_1H')) ? '1h' : option
}
