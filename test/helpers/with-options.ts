import type { ModDefinition } from '../../core/mod/define.js'

/** A mod definition with its options fixed, for `query({ options: { mods } })`, which takes definitions without options. */
export function withOptions<D extends ModDefinition<any>>(def: D, options: Record<string, unknown>): ModDefinition {
  const parsed = def.options ? def.options.parse(options) : options
  return { ...def, options: undefined, register: (on, _o, $) => def.register(on, parsed, $) }
}
