import { expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import { ModHost } from '../../core/mod/host.js'
import type { CompleteResult } from '../../core/mod/contracts.js'

// No clock is read: a wait "longer than the budget" lasts until a handler on the same budget,
// started after it, has timed out.
const BUDGET_MS = 30

it('a handler waiting on a $ call is not on its own time, as while it awaits next (a slow $.model.complete does not time it out)', async () => {
  const host = new ModHost()
  await host.add(defineMod({ name: 'witness', register(on) {
    on('tool.call', { tool: 'Witness' }, () => new Promise(() => {}), { budgetMs: BUDGET_MS })
  } }))
  await host.add(defineMod({ name: 'summarizer', register(on) {
    on('tool.call', { tool: 'Summarize' }, async ($) => {
      const r = await $.model.complete({ prompt: 'summarize' })
      return { result: r.isAnswered ? r.text : 'no summary' }
    }, { budgetMs: BUDGET_MS })
  } }))
  let answer!: (r: CompleteResult) => void
  host.provide({ 'model.complete': () => new Promise<CompleteResult>((resolve) => { answer = resolve }) })
  host.bind()
  const summary = host.bus.emit('tool.call', { tool: 'Summarize', tool_use_id: 'toolu_1' }, () => ({ result: 'unreached' }))
  await host.bus.emit('tool.call', { tool: 'Witness', tool_use_id: 'toolu_2' }, () => ({ result: 'witness timed out' }))
  answer({ isAnswered: true, text: 'the summary', usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } })
  expect(await summary).toEqual({ result: 'the summary' })
  expect(host.failures.map((f) => [f.mod, f.code])).toEqual([['witness', 'MODLOOP_ERR_HANDLER_TIMEOUT']])
  await host.close()
})
