import { BUILTINS } from './builtins.js'
import { loadDistribution as loadWith } from './runtime/loader/load-distribution.js'
import type { Distribution, LoadOptions } from './runtime/loader/types.js'
import { query as run, type Query } from './runtime/query.js'
import type { PromptInput, QueryOptions } from './runtime/options.js'

/**
 * Runs the agent with modloop's built-in mods and default distribution (core's own `query()`
 * knows none: it is handed them here). See runtime/query.ts for the stream and the controls.
 */
export function query(params: { prompt: PromptInput; options?: QueryOptions }): Query {
  return run({ ...params, options: { builtins: BUILTINS, ...params.options } })
}

/** Loads a distribution into a host, with modloop's built-in mods unless `builtins` says otherwise. */
export function loadDistribution(options: Omit<LoadOptions, 'builtins'> & Partial<Pick<LoadOptions, 'builtins'>>): Promise<Distribution> {
  return loadWith({ builtins: BUILTINS, ...options })
}
