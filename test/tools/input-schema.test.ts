import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool, inputSchemaOf } from '../../core/tools/tool.js'

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
