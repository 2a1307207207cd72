import type { ModApi } from '../../core/mod/api.js'

/** The launch options as mods read them (`$.settings.read({source: 'flag'})`), undefined for a host without them. */
export async function launchFlags<T extends object>($: ModApi): Promise<Partial<T> | undefined> {
  try {
    return ((await $.settings.read({ source: 'flag' })) ?? undefined) as Partial<T> | undefined
  } catch {
    return undefined
  }
}

/**
 * The flag layer's settings as the launch flags list them (their `settings`: the query's own, then
 * what Query.applyFlagSettings merged since): a mod that read the settings as a session started
 * compares this with what it read them under, and reads them again when applyFlagSettings changed
 * it (runtime/flag-settings.ts).
 */
export function flagLayers(flags: unknown): string {
  return JSON.stringify((flags as { settings?: unknown } | undefined)?.settings ?? [])
}
