// Writes mods/_shared/builtin-input-schemas.ts: the JSON Schema of each built-in tool input
// declared with builtinInput(), converted as a request would convert it, so a start need not
// (mods/_shared/builtin-input.ts says why). Run after `npm run build`, whenever a tool's input
// schema changes; `--check` exits 1 when the file is stale (test/tools/builtin-input.test.ts checks too).
import { dist, importDeclaring } from './dist-declarations.mjs'
import { writeOrCheck } from './generated-doc.mjs'

// The modules that declare one, found in the sources: some load only when their tool is offered.
await importDeclaring('builtinInput', 'builtin-input.ts')
const { declaredInputs } = await dist('mods/_shared/builtin-input.js')
const { inputSchemaOf } = await dist('core/tools/tool.js')

const entries = [...declaredInputs()].sort(([a], [b]) => a.localeCompare(b))
const text = [
  '// Made by `node scripts/tool-schemas.mjs` from the schemas declared with builtinInput(): do not edit.',
  '// Each value is the JSON Schema a request shows the model for that input (mods/_shared/builtin-input.ts).',
  'export const BUILTIN_INPUT_SCHEMAS: Record<string, string> = {',
  ...entries.map(([key, input]) => `  ${JSON.stringify(key)}: ${JSON.stringify(JSON.stringify(inputSchemaOf({ name: key, input: input() })))},`),
  '}',
  '',
].join('\n')

writeOrCheck('mods/_shared/builtin-input-schemas.ts', 'scripts/tool-schemas.mjs', text)
