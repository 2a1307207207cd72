import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool, inputSchemaOf, validateInput } from '../../core/tools/tool.js'

describe('the input schema the model is sent', () => {
  it('a field with a default is optional to send; objects stay closed, nested ones too', () => {
    const tool = defineTool({
      name: 'Edit',
      description: 'Edit',
      isReadOnly: () => false,
      input: z.object({
        file_path: z.string(),
        replace_all: z.boolean().default(false),
        note: z.string().optional(),
        edits: z.array(z.object({ old: z.string(), mode: z.enum(['a', 'b']).default('a') })).optional(),
      }),
      call: () => ({ result: '' }),
    })
    const schema = inputSchemaOf(tool) as any
    expect(schema.required).toEqual(['file_path'])
    expect(schema.additionalProperties).toBe(false)
    expect(schema.properties.replace_all).toEqual({ type: 'boolean', default: false })
    expect(schema.properties.edits.items).toMatchObject({ required: ['old'], additionalProperties: false })
    expect(schema).not.toHaveProperty('$schema')
  })
})

describe('input the model wrote', () => {
  const grep = defineTool({
    name: 'Grep', description: 'Grep', isReadOnly: () => true,
    input: z.object({ pattern: z.string(), glob: z.string().optional() }),
    call: () => ({ result: '' }),
  })

  it('with a parameter the tool does not take is refused, naming it (a mod\'s rewrite keeps the leniency)', () => {
    expect(validateInput(grep, { pattern: 'x', include: '*.md' }, { fromModel: true })).toEqual({
      ok: false, message: 'InputValidationError: Grep was called with invalid input:\n- include: An unexpected parameter `include` was provided',
    })
    expect(validateInput(grep, { pattern: 'x', glob: '*.md' }, { fromModel: true })).toEqual({ ok: true, input: { pattern: 'x', glob: '*.md' } })
    expect(validateInput(grep, { pattern: 'x', include: '*.md' })).toEqual({ ok: true, input: { pattern: 'x' } })
  })

  it('a schema that lets other keys through (loose) takes them', () => {
    const loose = defineTool({ name: 'Loose', description: 'L', isReadOnly: () => true, input: z.looseObject({ a: z.string() }), call: () => ({ result: '' }) })
    expect(validateInput(loose, { a: 'x', b: 1 }, { fromModel: true })).toEqual({ ok: true, input: { a: 'x', b: 1 } })
  })
})
