import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { inputSchemaOf } from '../../core/tools/tool.js'
import { BUILTIN_INPUT_SCHEMAS } from '../../mods/_shared/builtin-input-schemas.js'
import { declaredInputs, keptJsonSchema } from '../../mods/_shared/builtin-input.js'
import { readInput } from '../../mods/read/read-file.js'
import { createTestHost, defineMod } from '../../testing.js'

const mods = fileURLToPath(new URL('../../mods/', import.meta.url))
/** Each source file that declares a built-in input, with its text. */
const declaring = readdirSync(mods, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts') && !f.endsWith('builtin-input.ts'))
  .map((f) => ({ file: join(mods, f), text: readFileSync(join(mods, f), 'utf8') }))
  .filter((f) => f.text.includes('builtinInput('))

describe('built-in tool inputs converted ahead of time', () => {
  it('keep, for every declared input, the JSON Schema zod converts it to (after changing one: npm run build && node scripts/tool-schemas.mjs)', async () => {
    for (const { file } of declaring) await import(file)
    const converted = Object.fromEntries([...declaredInputs()].map(([key, input]) => [key, inputSchemaOf({ name: key, input: input() } as never)]))
    const kept = Object.fromEntries(Object.entries(BUILTIN_INPUT_SCHEMAS).map(([key, json]) => [key, JSON.parse(json)]))
    expect(Object.keys(converted).length).toBeGreaterThanOrEqual(25)
    expect(kept).toEqual(converted)
  })

  it('are declared under a key each', () => {
    const keys = declaring.flatMap(({ text }) => [...text.matchAll(/builtinInput\('([^']+)'/g)].map((m) => m[1]))
    expect(keys.length).toBeGreaterThanOrEqual(25)
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([])
  })

  it('reach the request as the conversion would, a copy of its own for each caller', async () => {
    const t = await createTestHost({ mods: ['read'], script: [{ reply: 'ok' }] })
    await t.run('hi')
    expect(t.model.requests[0]!.tools!.find((tool) => tool.name === 'Read')!.input_schema).toEqual(inputSchemaOf({ name: 'Read', input: readInput() } as never))
    await t.close()
    // A session may change the schema it was given; the next one's is whole.
    const [a, b] = [keptJsonSchema(readInput), keptJsonSchema(readInput)]
    expect(a).toEqual(b)
    expect(a).not.toBe(b)
    // Kept by the declaration: a variant made from it, or the schema it built, has none.
    expect(keptJsonSchema(() => readInput().extend({ more: z.string() }))).toBeUndefined()
    expect(keptJsonSchema(readInput() as never)).toBeUndefined()
    expect(readInput()).toBe(readInput())
  })
})

describe('$.tool.register with both a zod input and a JSON Schema', () => {
  it('shows the model the JSON Schema and validates calls with the zod input', async () => {
    const shown = { type: 'object', properties: { n: { type: 'integer', description: 'written by hand' } }, required: ['n'] }
    const calls: unknown[] = []
    const mod = defineMod({
      name: 'counter',
      register(on) {
        on('session.start', async ($, e, next) => {
          await $.tool.register({ name: 'Count', description: 'counts', input: z.object({ n: z.number().int() }), jsonSchema: shown, call: (input: unknown) => { calls.push(input); return { result: 'counted' } } } as never)
          return next(e)
        })
      },
    })
    const t = await createTestHost({
      mods: [mod],
      script: [{ reply: [{ tool_use: { name: 'Count', input: { n: 'two' } } }] }, { reply: [{ tool_use: { name: 'Count', input: { n: 2 } } }] }, { reply: 'done' }],
    })
    const run = await t.run('count')
    expect(t.model.requests[0]!.tools!.find((tool) => tool.name === 'Count')!.input_schema).toEqual(shown)
    expect(JSON.stringify(t.model.requests[1]!.messages.at(-1))).toContain('InputValidationError')
    expect(calls).toEqual([{ n: 2 }])
    expect(run.result.subtype).toBe('success')
    await t.close()
  })
})
