import type { TaskHookRequest } from '../_shared/task-hooks.js'
import type { HookBridge } from './bridge.js'

/**
 * TaskCreated and TaskCompleted, fired by the task-list tools through the `taskHooks` capability.
 * A hook that blocks (exit 2, `decision: "block"`) refuses the creation or the completion; the
 * model reads `<Event> hook feedback:` and its reason for each blocking hook, as in
 * Claude Code, whose input carries no `permission_mode` here. `continue: false` is ignored on both.
 */
export async function fireTaskHook(b: HookBridge | undefined, req: TaskHookRequest): Promise<string | undefined> {
  if (!b?.has(req.event)) return undefined
  const r = await b.fire(req.event, { task_id: req.task.id, task_subject: req.task.subject, task_description: req.task.description }, { ...b.agentOptions(req.agentId), noPermissionMode: true })
  if (!r.blocked) return undefined
  // A command's reason already reads `[<command>]: <stderr>`; a JSON `reason` comes bare.
  const reasons = r.blocks.length > 0 ? r.blocks.map((x) => x.reason) : [r.blockReason ?? 'Blocked by hook']
  return reasons.map((reason) => `${req.event} hook feedback:\n${reason}`).join('\n')
}
