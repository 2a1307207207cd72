import type { On } from '../../core/bus/types.js'
import { registerCommands } from '../_shared/register-command.js'
import type { Mode } from './types.js'

/** What `/plan` needs of the mode's owner. */
export interface PlanCommandOwner {
  mode(): Mode
  setMode(mode: Mode): void
  /** The plan-mode reminder due with this prompt, now that plan mode is on (the full one as it starts). */
  reminder(): string | undefined
}

/**
 * `/plan [task]`: plan mode from the prompt, as Claude Code's command. Alone it switches the mode
 * and answers without a model call (the next prompt carries the plan-mode reminder); with a task
 * it switches, then runs the task as the prompt with the reminder after it, so the model plans it
 * in this very turn. The switch goes through the same path as Shift+Tab and setPermissionMode, so
 * the stream's status message and ExitPlanMode's way back follow it.
 */
export function registerPlanCommand(on: On, owner: PlanCommandOwner): void {
  on('session.start', async ($, e, next) => {
    const r = await next(e)
    await registerCommands($, [{ name: 'plan', description: 'Switch to plan mode: read and plan, change nothing until a plan is approved; with a task, start planning it', argumentHint: '[task]', kind: 'local' }])
    return r
  })

  on('command.run', { command: 'plan' }, (_$, e) => {
    const task = e.args.trim()
    const was = owner.mode()
    if (was !== 'plan') owner.setMode('plan')
    if (task === '') {
      return { output: was === 'plan' ? 'Already in plan mode.' : 'Plan mode is on: Claude reads and plans, and changes nothing until a plan is approved.' }
    }
    const reminder = owner.reminder()
    return { prompt: task, ...(reminder ? { context: [reminder] } : {}) }
  })
}
