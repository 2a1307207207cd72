import { defineMod } from '../../core/mod/define.js'
import type { ModApi } from '../../core/mod/api.js'
import { launchFlags } from '../_shared/launch-flags.js'
import { capabilitiesOf } from '../../core/model/capabilities.js'

// The Messages API's opt-in for task budgets.
const BETA = 'task-budgets-2026-03-13'
// The models that take one (Opus 4.7 on, Sonnet and Haiku 5.5, Fable and Mythos 5 on); an id the
// capability table does not know is taken to be newer, as its other columns take it.
const TAKES = /opus-4-[78]|opus-5|sonnet-5-5|haiku-5-5|fable-5|mythos-5/

/** Whether a request to `model` may carry a task budget. */
export function takesTaskBudget(model: string): boolean {
  return TAKES.test(model.toLowerCase()) || capabilitiesOf(model).family === 'unknown'
}

/**
 * Task budgets (`taskBudget: { total }`, `--task-budget <tokens>`): each request of the main
 * conversation tells the model how many tokens the whole task may take, thinking, tool calls and
 * results and output together (`output_config.task_budget`, with the `task-budgets-2026-03-13`
 * beta), so it paces its work and wraps up as the countdown, which the API keeps, runs down. It
 * advises, it does not stop anything: maxBudgetUsd and maxTurns do. A model that takes no budget
 * is sent none; subagents and side requests (summaries, the classifier) carry none.
 */
export default defineMod({
  name: 'task-budget',
  description: 'Task budgets: how many tokens the whole task has, on every request (--task-budget)',
  register(on) {
    const totals = new Map<string, number>()
    on('session.start', async ($, e, next) => {
      const total = await budgetOf($)
      if (total !== undefined) totals.set(e.sessionId, total)
      return next(e)
    })
    on('model.request', ($, e, next) => {
      const total = e.purpose === 'turn' && !e.agentId ? totals.get($.session.id() as string) : undefined
      if (total === undefined || !takesTaskBudget(e.request.model)) return next(e)
      const r = e.request
      return next({
        ...e,
        request: { ...r, output_config: { ...r.output_config, task_budget: { type: 'tokens', total } }, betas: [...new Set([...(r.betas ?? []), BETA])] },
      })
    })
    on('session.end', (_$, e, next) => {
      totals.delete(e.sessionId)
      return next(e)
    })
  },
})

/** The launch's `taskBudget.total`: a whole number of tokens from 1; anything else is named in a warning and no budget goes. */
async function budgetOf($: ModApi): Promise<number | undefined> {
  const budget = (await launchFlags<{ taskBudget: { total?: unknown } }>($))?.taskBudget
  if (budget === undefined) return undefined
  const total = budget.total
  if (typeof total === 'number' && Number.isInteger(total) && total > 0) return total
  $.log.warn(`taskBudget.total must be a whole number of tokens from 1, got ${JSON.stringify(total)}; no task budget is sent`)
  return undefined
}
