// Writes mods/_shared/builtin-input-schemas.ts: the JSON Schema of each built-in tool input
// declared with builtinInput(), converted as a request would convert it, so a start need not
// (mods/_shared/builtin-input.ts says why). Run after `npm run build`, whenever a tool's input
// schema changes; `--check` exits 1 when the file is stale (test/tools/builtin-input.test.ts checks too).
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { writeOrCheck } from './generated-doc.mjs'

const dist = (path) => import(new URL(`../dist/${path}`, import.meta.url).href)
// The modules that declare one, found in the sources: some load only when their tool is offered.
const root = fileURLToPath(new URL('..', import.meta.url))
const declaring = readdirSync(`${root}mods`, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts') && !f.endsWith('builtin-input.ts') && readFileSync(`${root}mods/${f}`, 'utf8').includes('builtinInput('))
for (const f of declaring) await dist(`mods/${f.replace(/\.ts$/, '.js')}`)
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
