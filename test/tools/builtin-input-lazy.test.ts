import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { onFirstUse } from '../../core/on-first-use.js'
import { INPUT_ON_FIRST_USE } from '../../core/tools/tool.js'
import { keptJsonSchema } from '../../mods/_shared/builtin-input.js'
import { registerTool } from '../../mods/_shared/register-tool.js'
import { readInput } from '../../mods/read/read-file.js'
import { createTestHost, defineMod } from '../../testing.js'

describe('a tool input registered as the function that builds it (the built-in tools\')', () => {
  it('is built at the first call it validates, not at registration or in a request, then kept; bad input is refused as before', async () => {
    const shown = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false }
    let builds = 0
    const build = onFirstUse(() => {
      builds++
      return z.object({ n: z.number().int() })
    })
    const calls: unknown[] = []
    const mod = defineMod({
      name: 'counter',
      register(on) {
        on('session.start', async ($, e, next) => {
          await $.tool.register({ name: 'Count', description: 'counts', jsonSchema: shown, [INPUT_ON_FIRST_USE]: build, isReadOnly: true, call: (input: unknown) => { calls.push(input); return { result: 'counted' } } } as never)
          return next(e)
        })
      },
    })
    const t = await createTestHost({
      mods: [mod],
      script: [{ reply: 'hi' }, { reply: [{ tool_use: { name: 'Count', input: { n: 'two', more: 1 } } }] }, { reply: [{ tool_use: { name: 'Count', input: { n: 2 } } }] }, { reply: 'done' }],
    })
    await t.run('hi')
    expect(builds).toBe(0)
    expect(t.model.requests[0]!.tools!.find((tool) => tool.name === 'Count')!.input_schema).toEqual(shown)

    const run = await t.run('count')
    expect(builds).toBe(1)
    expect(JSON.stringify(t.model.requests[2]!.messages.at(-1))).toContain(JSON.stringify(
      'InputValidationError: Count was called with invalid input:\n- n: Invalid input: expected number, received string\n- more: An unexpected parameter `more` was provided',
    ).slice(1, -1))
    expect(calls).toEqual([{ n: 2 }])
    expect(run.result.subtype).toBe('success')
    await t.close()
  })

  it('goes from registerTool as its builder, with the JSON kept for a declared one, never as a built schema', async () => {
    const given: Record<PropertyKey, unknown>[] = []
    const $ = { tool: { register: (spec: Record<PropertyKey, unknown>) => { given.push(spec); return Promise.resolve({ tool: String(spec.name) }) } } }
    const tool = { description: 'reads', isReadOnly: true, call: () => ({ result: '' }) }
    await registerTool($ as never, { ...tool, name: 'Read', input: readInput })
    await registerTool($ as never, { ...tool, name: 'Variant', input: () => readInput().extend({ more: z.string() }) })
    const [declared, variant] = given as [Record<PropertyKey, any>, Record<PropertyKey, any>]
    expect(declared.input).toBeUndefined()
    expect(declared.jsonSchema).toEqual(keptJsonSchema(readInput))
    expect(declared[INPUT_ON_FIRST_USE]()).toBe(readInput())
    // A variant made at run time has no kept JSON (the request converts it), and is built once.
    expect(variant.jsonSchema).toBeUndefined()
    expect(variant[INPUT_ON_FIRST_USE]()).toBe(variant[INPUT_ON_FIRST_USE]())
    expect(variant[INPUT_ON_FIRST_USE]().shape.more).toBeDefined()
  })
})
