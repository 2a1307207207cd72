import { defineMod } from 'modloop'
import { z } from 'zod'

const options = z.object({ budgetUsd: z.number().positive().default(1) })

type Usage = { cost?: { usd: number } }

/**
 * Stops the agent once the session has spent its budget: before each model request (turn.step)
 * it reads `$.session.usage()`, and past the budget it answers the step itself — a final text
 * instead of another paid request — so the turn ends cleanly with that answer.
 */
export default defineMod({
  name: 'cost-guard',
  description: 'Ends the turn once the session has spent its budget',
  options,
  register(on, opts) {
    on('turn.step', async function* ($, e, next) {
      const spent = ((await $.session.usage()) as Usage).cost?.usd ?? 0
      if (spent < opts.budgetUsd) return yield* next(e)
      const text = `Stopped: this session has spent $${spent.toFixed(4)} of its $${opts.budgetUsd} budget.`
      yield { kind: 'text', index: 0, text }
      yield { kind: 'block_stop', index: 0 }
      const usage = { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }
      yield { kind: 'stop', stopReason: 'end_turn', usage }
      return { turnId: e.turnId, index: e.index, answer: text, toolUses: [], stopReason: 'end_turn', usage: null }
    })
  },
})
