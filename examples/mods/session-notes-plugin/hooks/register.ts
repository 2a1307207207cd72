import type { On } from 'modloop'

/**
 * A hooks module: the bare `register(on, options)` form. `options` are the plugin.json
 * userConfig values, defaults filled in, overridden by the distribution's options for the plugin.
 */
export function register(on: On, options: Readonly<Record<string, unknown>>): void {
  const note = String(options.note)
  on('prompt.submit', async (_$, e, next) => next({ ...e, context: [...(e.context ?? []), `Project note: ${note}`] }))
}
