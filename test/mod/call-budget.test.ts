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

it('next.budget says the whole allowance and what is left of it; the time below an awaited next is not spent from it', async () => {
  const host = new ModHost()
  const seen: { ms: number; start: number; beforeNext: number; afterNext: number; waitedMs: number } = { ms: 0, start: 0, beforeNext: 0, afterNext: 0, waitedMs: 0 }
  const order: string[] = []
  await host.add(defineMod({ name: 'metered', register(on) {
    on('tool.call', { tool: 'Metered' }, async (_$, e, next) => {
      seen.ms = next.budget.ms
      seen.start = next.budget.remainingMs
      // Some own time spent, synchronously.
      for (let t = performance.now(); performance.now() - t < 2;);
      seen.beforeNext = next.budget.remainingMs
      const at = performance.now()
      order.push('next')
      const r = await next(e)
      seen.waitedMs = performance.now() - at
      seen.afterNext = next.budget.remainingMs
      return r
    }, { budgetMs: 5_000 })
  } }))
  await host.add(defineMod({ name: 'slow-below', register(on) {
    on('tool.call', { tool: 'Metered' }, async (_$, e, next) => {
      order.push('below')
      await new Promise((r) => setTimeout(r, 40))
      return next(e)
    })
  } }))
  host.bind()
  expect(await host.bus.emit('tool.call', { tool: 'Metered', tool_use_id: 'toolu_1' }, () => ({ result: 'ran' }))).toEqual({ result: 'ran' })
  // The metered handler is above the slow one: its next waits on it.
  expect(order).toEqual(['next', 'below'])
  expect(seen.ms).toBe(5_000)
  expect(seen.start).toBeLessThanOrEqual(5_000)
  expect(seen.beforeNext).toBeLessThan(seen.start)
  // The clock stood still while next was in flight: less was spent across it than it took.
  expect(seen.beforeNext - seen.afterNext).toBeLessThan(seen.waitedMs)
  expect(seen.afterNext).toBeGreaterThan(0)
  await host.close()
})
