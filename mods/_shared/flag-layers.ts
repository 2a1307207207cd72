/**
 * The flag layer's settings as the launch flags list them (`$.settings.read({source: 'flag'})`'s
 * `settings`: the query's own, then what Query.applyFlagSettings merged since): a mod that read
 * the settings as a session started compares this with what it read them under, and reads them
 * again when applyFlagSettings changed it (runtime/flag-settings.ts).
 */
export function flagLayers(flags: unknown): string {
  return JSON.stringify((flags as { settings?: unknown } | undefined)?.settings ?? [])
}
