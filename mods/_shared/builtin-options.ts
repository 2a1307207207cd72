import { z } from 'zod'
import { keepDefaults } from '../../core/mod/kept-defaults.js'
import { BUILTIN_OPTION_DEFAULTS } from './builtin-option-defaults.js'

const declared = new Map<string, z.ZodLazy<z.ZodType>>()

/**
 * A built-in mod's options schema, built only when the mod is given options. What it makes of no
 * options is kept (builtin-option-defaults.ts, written by `node scripts/option-defaults.mjs` from
 * these very schemas), and the host starts a mod given none from a copy of that
 * (core/mod/kept-defaults.ts). test/mod/builtin-options.test.ts fails when the kept JSON and a
 * schema differ.
 */
export function builtinOptions<S extends z.ZodType>(mod: string, build: () => S): z.ZodLazy<S> {
  const schema = z.lazy(build)
  declared.set(mod, schema)
  const json = BUILTIN_OPTION_DEFAULTS[mod]
  if (json !== undefined) keepDefaults(schema, json)
  return schema
}

/** The schemas declared by the modules imported so far, by mod: what the generator parses and the test checks. */
export function declaredOptions(): ReadonlyMap<string, z.ZodLazy<z.ZodType>> {
  return declared
}
