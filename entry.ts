import { BUILTINS } from './builtins.js'
import { loadDistribution as loadWith } from './core/loader/load-distribution.js'
import type { Distribution, LoadOptions } from './core/loader/types.js'
import { query as run, type Query } from './core/loop/query.js'
import type { PromptInput, QueryOptions } from './core/loop/options.js'

/**
 * Runs the agent with modloop's built-in mods and default distribution (core's own `query()`
 * knows none: it is handed them here). See core/loop/query.ts for the stream and the controls.
 */
export function query(params: { prompt: PromptInput; options?: QueryOptions }): Query {
  return run({ ...params, options: { builtins: BUILTINS, ...params.options } })
}

/** Loads a distribution into a host, with modloop's built-in mods unless `builtins` says otherwise. */
export function loadDistribution(options: Omit<LoadOptions, 'builtins'> & Partial<Pick<LoadOptions, 'builtins'>>): Promise<Distribution> {
  return loadWith({ builtins: BUILTINS, ...options })
}
