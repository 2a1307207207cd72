import type { HooksError, HooksWarning } from './errors.js'
import { handlerName, type HookSource, type HooksConfig, type ResolvedHandler } from './hooks-config.js'
import { parseHooks } from './parse-hooks.js'

export interface HookEntries {
  source: HookSource
  /** The `hooks` object: event → matcher groups → handlers. */
  hooks: unknown
}

export interface ResolvedHooks {
  config: HooksConfig
  errors: HooksError[]
  warnings: HooksWarning[]
}

export interface ResolveOptions {
  allowedHttpHookUrls?: readonly string[]
  httpHookAllowedEnvVars?: readonly string[]
}

/**
 * Concatenates hook entries in the order given (that order is "settings order" for merging and
 * conflicts) into one config. Hook entries never replace each other across sources (spec §1.3).
 */
export function resolveHooks(entries: readonly HookEntries[], options: ResolveOptions = {}): ResolvedHooks {
  const handlers: ResolvedHandler[] = []
  const errors: HooksError[] = []
  const warnings: HooksWarning[] = []
  let group = 0
  for (const { source, hooks } of entries) {
    const parsed = parseHooks(hooks, source)
    errors.push(...parsed.errors)
    warnings.push(...parsed.warnings)
    for (const g of parsed.groups) {
      for (const h of g.handlers) {
        handlers.push({
          id: handlers.length,
          event: g.event,
          matcher: g.matcher,
          group,
          sequential: g.sequential,
          config: h.config,
          source,
          path: h.path,
          name: handlerName(h.config),
        })
      }
      group++
    }
  }
  const config: HooksConfig = { handlers, ...options }
  return { config, errors, warnings }
}
