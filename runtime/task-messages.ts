import type { TaskPatch, TaskUsage } from '../core/events/types.js'
import type { TaskEndSpec, TaskProgressSpec, TaskStartSpec } from '../core/mod/contracts.js'

/**
 * The Agent SDK's task messages (`system` subtypes), as query() yields them and stream-json
 * prints them. Built here without uuid and session id; the session stamps them.
 */

export interface BackgroundTaskEntry { task_id: string; task_type: string; subagent_type?: string; description: string }

export function taskStarted(spec: TaskStartSpec) {
  return {
    type: 'system' as const, subtype: 'task_started', task_id: spec.taskId, description: spec.description, task_type: spec.taskType,
    is_backgrounded: spec.isBackgrounded, ...(spec.toolUseId ? { tool_use_id: spec.toolUseId } : {}),
    ...(spec.subagentType ? { subagent_type: spec.subagentType } : {}), ...(spec.spawnDepth !== undefined ? { spawn_depth: spec.spawnDepth } : {}),
    ...(spec.prompt !== undefined ? { prompt: spec.prompt } : {}), ...ambience(spec.ambient),
    // A modloop addition: where its output goes while it runs.
    output_file: spec.outputFile,
  }
}

export function taskProgress(p: TaskProgressSpec, start: TaskStartSpec) {
  return {
    type: 'system' as const, subtype: 'task_progress', task_id: p.taskId, ...(start.toolUseId ? { tool_use_id: start.toolUseId } : {}),
    description: p.description, ...(start.subagentType ? { subagent_type: start.subagentType } : {}), usage: p.usage,
    ...(p.lastToolName ? { last_tool_name: p.lastToolName } : {}), ...(p.summary ? { summary: p.summary } : {}),
  }
}

export function taskUpdated(taskId: string, patch: TaskPatch) {
  return { type: 'system' as const, subtype: 'task_updated', task_id: taskId, patch }
}

export function taskNotification(end: TaskEndSpec & { outputFile: string; toolUseId?: string; ambient?: boolean }) {
  const usage: TaskUsage | undefined = end.usage
  return {
    type: 'system' as const, subtype: 'task_notification', task_id: end.taskId, status: end.status, output_file: end.outputFile,
    summary: end.summary, ...(end.summaryIsReport ? { summary_is_report: true } : {}),
    ...(end.toolUseId ? { tool_use_id: end.toolUseId } : {}), ...(usage ? { usage } : {}), ...ambience(end.ambient),
  }
}

// How Claude Code marks the start and end of a task that is part of a tool call (a fork skill's).
function ambience(ambient: boolean | undefined) {
  return ambient ? { skip_transcript: true as const, ambient: true as const } : {}
}

/** The whole set of live background tasks, sent on every change of it. */
export function backgroundTasksChanged(tasks: BackgroundTaskEntry[]) {
  return { type: 'system' as const, subtype: 'background_tasks_changed', tasks }
}
