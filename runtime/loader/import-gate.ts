import { AsyncLocalStorage } from 'node:async_hooks'
import { ModloopError } from '../../core/errors.js'

/** Answers why `file` may not be imported, or undefined when it may. */
export type ImportGate = (file: string) => string | undefined

const gate = new AsyncLocalStorage<ImportGate>()

/**
 * Runs a load in which every module import (config files that are code, mod modules, plugin
 * modules) first asks `refuse`. The commands that review a project (`mods list`, `hooks list`,
 * `permissions check`, …) run this way in a folder not yet trusted, so reading what a project
 * would load never runs its code. Scoped to the call, so two loads at once never share a gate.
 */
export function withImportGate<T>(refuse: ImportGate, load: () => Promise<T>): Promise<T> {
  return gate.run(refuse, load)
}

/** Throws MODLOOP_ERR_UNTRUSTED when the running load's gate refuses `file`. */
export function assertMayImport(file: string, what: string): void {
  const why = gate.getStore()?.(file)
  if (why) throw new ModloopError('MODLOOP_ERR_UNTRUSTED', `${file}: the ${what} was not imported: ${why}`, { file, stage: 'import' })
}
