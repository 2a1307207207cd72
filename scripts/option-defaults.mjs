// Writes mods/_shared/builtin-option-defaults.ts: what each built-in mod's options schema declared
// with builtinOptions() makes of no options, so a start need not build the schema to learn it
// (mods/_shared/builtin-options.ts says why). Run after `npm run build`, whenever a built-in mod's
// options change; `--check` exits 1 when the file is stale (test/mod/builtin-options.test.ts checks too).
import { dist, importDeclaring } from './dist-declarations.mjs'
import { writeOrCheck } from './generated-doc.mjs'

await importDeclaring('builtinOptions', 'builtin-options.ts')
const { declaredOptions } = await dist('mods/_shared/builtin-options.js')

const entries = [...declaredOptions()].sort(([a], [b]) => a.localeCompare(b))
const text = [
  '// Made by `node scripts/option-defaults.mjs` from the schemas declared with builtinOptions(): do not edit.',
  "// Each value is what that mod's options schema makes of no options (mods/_shared/builtin-options.ts).",
  'export const BUILTIN_OPTION_DEFAULTS: Record<string, string> = {',
  ...entries.map(([mod, schema]) => `  ${JSON.stringify(mod)}: ${JSON.stringify(JSON.stringify(schema.parse({})))},`),
  '}',
  '',
].join('\n')

writeOrCheck('mods/_shared/builtin-option-defaults.ts', 'scripts/option-defaults.mjs', text)
