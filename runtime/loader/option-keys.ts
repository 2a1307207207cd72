import { z } from 'zod'
import type { ModDefinition } from '../../core/mod/define.js'

/**
 * The option names given to a mod that its schema does not have. A zod object strips what it
 * does not know, so a misspelled option (`treshold`) would otherwise vanish without a word while
 * the mod runs on its default. Only a plain `z.object` is asked: a strict one already refuses
 * such keys, a passthrough or catchall one takes them, and a mod without a schema reads what it likes.
 */
export function unknownOptionKeys(def: Pick<ModDefinition, 'options'>, options: unknown): string[] {
  if (typeof options !== 'object' || options === null || Array.isArray(options) || Object.keys(options).length === 0) return []
  const schema = objectSchema(def)
  if (!schema || schema._zod.def.catchall !== undefined) return []
  const known = new Set(Object.keys(schema.shape))
  return Object.keys(options).filter((k) => !known.has(k))
}

/** The warning for them, naming the mod, the config and the options it does have. */
export function unknownOptionsWarning(mod: string, keys: readonly string[], def: Pick<ModDefinition, 'options'>, where: string): string {
  const known = Object.keys(objectSchema(def)!.shape)
  const names = keys.map((k) => `"${k}"`).join(', ')
  return `${where}: ${mod}: ${keys.length > 1 ? 'options' : 'option'} ${names} ${keys.length > 1 ? 'are' : 'is'} not among its options (${known.join(', ')}), so ${keys.length > 1 ? 'they do' : 'it does'} nothing`
}

/** The mod's options schema when it is a `z.object`, seen through the `z.lazy` a built-in mod's is declared in (mods/_shared/builtin-options.ts). */
function objectSchema(def: Pick<ModDefinition, 'options'>): z.ZodObject | undefined {
  const schema = def.options instanceof z.ZodLazy ? def.options.unwrap() : def.options
  return schema instanceof z.ZodObject ? schema : undefined
}
