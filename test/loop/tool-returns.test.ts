import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import compaction from '../../mods/compaction/index.js'
import { runScript } from './helpers.js'

const circular: Record<string, unknown> = { name: 'loop' }
circular.self = circular

/** Tools that answer in the shapes a mod author may write, right or wrong. */
const odd = defineMod({
  name: 'odd-tools',
  register: (on) => on('session.start', async ($, e, next) => {
    const tool = (name: string, call: () => unknown) => $.tool.register({ name, description: name, input: z.object({}), isReadOnly: true, call } as never)
    await tool('Circular', () => ({ result: circular }))
    await tool('Big', () => ({ result: 123n }))
    await tool('TextOnly', () => ({ text: 'hello' }))
    await tool('Bare', () => 'plain words')
    return next(e)
  }),
})

const call = (name: string) => [{ reply: [{ tool_use: { name, input: {} } }] }, { reply: 'done' }]
const toolResult = (r: { body: any }) => r.body.messages.at(-1).content.find((b: any) => b.type === 'tool_result')
const userResults = (messages: readonly any[]) => messages.filter((m) => m.type === 'user' && m.tool_use_result !== undefined).map((m) => m.tool_use_result)

describe('what a tool returns', () => {
  for (const [name, cause] of [['Circular', /circular/i], ['Big', /BigInt/i]] as const) {
    it(`a result that cannot be serialized (${name}) is an error result naming the tool; the run goes on`, async () => {
      // The compaction mod measures results too: it must not be the one to throw.
      const r = await runScript(call(name), 'go', { mods: [odd, compaction] })
      expect(r.error).toBeUndefined()
      expect(r.result).toMatchObject({ subtype: 'success', result: 'done' })
      const block = toolResult(r.requests[1]!)
      expect(block.is_error).toBe(true)
      expect(block.content).toContain(`${name} returned a result that cannot be sent`)
      expect(block.content).toMatch(cause)
    })
  }

  it('a result of only text has that text as tool_use_result and content', async () => {
    const r = await runScript(call('TextOnly'), 'go', { mods: [odd] })
    expect(toolResult(r.requests[1]!).content).toBe('hello')
    expect(userResults(r.messages)).toEqual(['hello'])
  })

  it('a bare string is both the result and the text', async () => {
    const r = await runScript(call('Bare'), 'go', { mods: [odd] })
    expect(toolResult(r.requests[1]!)).toMatchObject({ content: 'plain words' })
    expect(toolResult(r.requests[1]!).is_error).toBeUndefined()
    expect(userResults(r.messages)).toEqual(['plain words'])
  })

  it('$.tool.register refuses a plain JSON Schema as input, naming the mod and the tool; inputSchema and jsonSchema take one', async () => {
    const logged: string[] = []
    const schema = { type: 'object', properties: { q: { type: 'string' } } }
    const plain = defineMod({
      name: 'plain-schema',
      register: (on) => on('session.start', async ($, e, next) => {
        await $.tool.register({ name: 'Good', description: 'g', inputSchema: schema, call: () => ({ result: 'good' }) } as never)
        await $.tool.register({ name: 'AlsoGood', description: 'g', jsonSchema: schema, call: () => ({ result: 'also' }) } as never)
        await $.tool.register({ name: 'Wrong', description: 'w', input: schema, call: () => ({ result: 'x' }) } as never)
        return next(e)
      }),
    })
    const r = await runScript([{ reply: [{ tool_use: { name: 'Good', input: { q: 'a' } } }] }, { reply: 'done' }], 'go', { mods: [plain], log: (t) => logged.push(t) })
    expect(r.result).toMatchObject({ subtype: 'success', result: 'done' })
    expect(logged.join('\n')).toMatch(/plain-schema: tool "Wrong": input must be a zod schema/)
    const tools = r.requests[0]!.body.tools.map((t: any) => [t.name, t.input_schema])
    expect(tools).toContainEqual(['Good', schema])
    expect(tools).toContainEqual(['AlsoGood', schema])
    expect(tools.map((t: any) => t[0])).not.toContain('Wrong')
    expect(toolResult(r.requests[1]!).content).toBe('good')
  })
})
