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

it('a $ call the handler does not await stops its clock only until it goes on: code after its next next() is on its own time again', async () => {
  const host = new ModHost()
  const witness = (name: string) => defineMod({ name, register(on) {
    on('tool.call', { tool: name }, () => new Promise(() => {}), { budgetMs: BUDGET_MS })
  } })
  await host.add(witness('first-witness'))
  await host.add(witness('second-witness'))
  await host.add(defineMod({ name: 'submitter', register(on) {
    on('tool.call', { tool: 'Submit' }, async ($, e, next) => {
      // Settles when its turn starts, long after this handler: not awaited.
      void $.prompt.submit({ text: 'later' })
      await Promise.resolve()
      const r = await next(e)
      // Keeps working on its own, past its budget.
      await new Promise(() => {})
      return r
    }, { budgetMs: BUDGET_MS })
  } }))
  host.provide({ 'prompt.submit': () => new Promise(() => {}) })
  host.bind()
  const call = (tool: string) => host.bus.emit('tool.call', { tool, tool_use_id: `toolu_${tool}` }, () => ({ result: `${tool} ran` }))
  const submitted = call('Submit')
  await call('first-witness')
  await call('second-witness')
  // The submitter and the first witness run out in the same check of the clocks, in either order.
  expect(host.failures.map((f) => [f.mod, f.code]).sort()).toEqual([
    ['first-witness', 'MODLOOP_ERR_HANDLER_TIMEOUT'], ['second-witness', 'MODLOOP_ERR_HANDLER_TIMEOUT'], ['submitter', 'MODLOOP_ERR_HANDLER_TIMEOUT'],
  ])
  expect(await submitted).toEqual({ result: 'Submit ran' })
  await host.close()
})

it('$ calls made together (Promise.all) keep the clock stopped until the last of them settles', async () => {
  const host = new ModHost()
  await host.add(defineMod({ name: 'witness', register(on) {
    on('tool.call', { tool: 'Witness' }, () => new Promise(() => {}), { budgetMs: BUDGET_MS })
  } }))
  await host.add(defineMod({ name: 'summarizer', register(on) {
    on('tool.call', { tool: 'Summarize' }, async ($) => {
      const rs = await Promise.all([$.model.complete({ prompt: 'slow' }), $.model.complete({ prompt: 'quick' })])
      return { result: rs.map((r) => (r.isAnswered ? r.text : '')).join(' ') }
    }, { budgetMs: BUDGET_MS })
  } }))
  const answers = new Map<string, (r: CompleteResult) => void>()
  host.provide({ 'model.complete': (_mod: string, req: { prompt: string }) => new Promise<CompleteResult>((resolve) => { answers.set(req.prompt, resolve) }) })
  host.bind()
  const usage = { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }
  const summary = host.bus.emit('tool.call', { tool: 'Summarize', tool_use_id: 'toolu_1' }, () => ({ result: 'unreached' }))
  answers.get('quick')!({ isAnswered: true, text: 'quick', usage })
  await host.bus.emit('tool.call', { tool: 'Witness', tool_use_id: 'toolu_2' }, () => ({ result: 'witness timed out' }))
  answers.get('slow')!({ isAnswered: true, text: 'slow', usage })
  expect(await summary).toEqual({ result: 'slow quick' })
  expect(host.failures.map((f) => [f.mod, f.code])).toEqual([['witness', 'MODLOOP_ERR_HANDLER_TIMEOUT']])
  await host.close()
})

it('a $ call of a sibling handler of the same mod, made and settled meanwhile, does not restart the clock of a handler still waiting on its own call', async () => {
  const host = new ModHost()
  await host.add(defineMod({ name: 'witness', register(on) {
    on('tool.call', { tool: 'Witness' }, () => new Promise(() => {}), { budgetMs: BUDGET_MS })
  } }))
  await host.add(defineMod({ name: 'checker', register(on) {
    on('tool.call', { tool: 'Slow' }, async ($) => {
      const r = await $.model.complete({ prompt: 'slow' })
      return { result: r.isAnswered ? r.text : 'no answer' }
    }, { budgetMs: BUDGET_MS })
    // Another call's handler of the same mod, later, with a $ call that settles at once.
    on('tool.call', { tool: 'Quick' }, async ($, e, next) => {
      $.session.id()
      return next(e)
    }, { budgetMs: BUDGET_MS })
  } }))
  let answer!: (r: CompleteResult) => void
  host.provide({ 'model.complete': () => new Promise<CompleteResult>((resolve) => { answer = resolve }), 'session.id': () => 'session-1' })
  host.bind()
  const slow = host.bus.emit('tool.call', { tool: 'Slow', tool_use_id: 'toolu_1' }, () => ({ result: 'unreached' }))
  await Promise.resolve()
  await host.bus.emit('tool.call', { tool: 'Quick', tool_use_id: 'toolu_2' }, () => ({ result: 'quick ran' }))
  await host.bus.emit('tool.call', { tool: 'Witness', tool_use_id: 'toolu_3' }, () => ({ result: 'witness timed out' }))
  answer({ isAnswered: true, text: 'the answer', usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } })
  expect(await slow).toEqual({ result: 'the answer' })
  expect(host.failures.map((f) => [f.mod, f.code])).toEqual([['witness', 'MODLOOP_ERR_HANDLER_TIMEOUT']])
  await host.close()
})
