import { describe, expectTypeOf, it } from 'vitest'
import type { On } from '../../core/bus/types.js'
import type { ToolCallInput, ToolCallResult, ToolCheckResult, TurnStepChunk } from '../../core/events/types.js'
import type { PayloadOf, ResultOf } from '../../core/events/catalog.js'
import { defineMod } from '../../core/mod/define.js'
import { z } from 'zod'

// These tests are checked by `tsc` (npm test type-checks test/); vitest only runs the bodies.
describe('types derived from the catalog', () => {
  it('gives each handler the payload and result of its event', () => {
    const register = (on: On) => {
      on('tool.call', (_$, e, next) => {
        expectTypeOf(e).toEqualTypeOf<ToolCallInput>()
        expectTypeOf(next).parameter(0).toEqualTypeOf<ToolCallInput>()
        expectTypeOf(next(e)).resolves.toEqualTypeOf<ToolCallResult>()
        return { deny: 'no' }
      })
      on('tool.check', async (_$, e, next) => {
        expectTypeOf(e.tool).toBeString()
        const r = await next(e)
        expectTypeOf(r).toEqualTypeOf<ToolCheckResult>()
        return { ...r, decision: 'ask' }
      })
      on('turn.step', async function* (_$, e, next) {
        expectTypeOf(e.model).toBeString()
        const s = next(e)
        for await (const c of s) {
          expectTypeOf(c).toEqualTypeOf<TurnStepChunk>()
          yield c
        }
        return await s.result
      })
      on('tool.call', { tool: 'Bash' }, (_$, e, next) => next(e)).catch((_$, e, next) => (next.called ? next(e) : { deny: 'guard failed' }))
    }
    expectTypeOf(register).toBeFunction()
    expectTypeOf<PayloadOf<'session.start'>>().toHaveProperty('cwd')
    expectTypeOf<ResultOf<'tool.check'>>().toEqualTypeOf<ToolCheckResult>()
  })

  it('rejects misuse at compile time', () => {
    const register = (on: On) => {
      // @ts-expect-error: no such event
      on('tool.calls', (_$, e, next) => next(e))
      // @ts-expect-error: wrong result shape for tool.check
      on('tool.check', () => ({ decision: 'maybe' }))
      // @ts-expect-error: tool.call results have no `drop`
      on('tool.call', () => ({ drop: 'x' }))
      // @ts-expect-error: streaming events need an async generator, not a plain result
      on('turn.step', () => ({ answer: '', toolUses: [], turnId: 't', index: 0, stopReason: null, usage: null }))
    }
    expectTypeOf(register).toBeFunction()
  })

  it('types defineMod options from the zod schema', () => {
    defineMod({
      name: 'typed',
      options: z.object({ limit: z.number().default(3), names: z.array(z.string()).default([]) }),
      register(_on, options) {
        expectTypeOf(options.limit).toBeNumber()
        expectTypeOf(options.names).toEqualTypeOf<string[]>()
      },
    })
  })
})
