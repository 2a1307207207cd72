import type { ModApi } from '../../core/mod/api.js'

// Models that plan without a checklist tool unless the user opts in, as Claude Code has it:
// Opus 4.8 and later, Sonnet 5 and later, Fable 5 and later.
const PLANS_WITHOUT_LIST = /(?:opus-(?:4-(?:[89]|\d\d)|[5-9]|\d\d)|sonnet-(?:[5-9]|\d\d)|fable-(?:[5-9]|\d\d))(?:\b|-|$)/
const LIST_TOOLS = ['TodoWrite', 'TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate']
const OFF = new Set(['0', 'false', 'no', 'off'])
const ON = new Set(['1', 'true', 'yes', 'on'])
const flag = (value: string | undefined, set: Set<string>) => value !== undefined && set.has(value.trim().toLowerCase())

/**
 * Which checklist a session offers the model: the task list (TaskCreate, TaskGet, TaskList,
 * TaskUpdate), the legacy TodoWrite (`CLAUDE_CODE_ENABLE_TASKS=0`), or neither. The newest models
 * get neither unless `CLAUDE_CODE_ENABLE_TODO_TOOLS=1` or `allowedTools` / `tools` names one.
 */
export function checklistOf($: ModApi): 'tasks' | 'todo' | undefined {
  const flags = $.settings.read({ source: 'flag' })
  const named = [flags.allowedTools, flags.tools].some((list) => Array.isArray(list) && list.some((t) => LIST_TOOLS.includes(String(t))))
  const optedIn = flag($.env.get('CLAUDE_CODE_ENABLE_TODO_TOOLS'), ON) || named
  if (!optedIn && PLANS_WITHOUT_LIST.test($.session.model())) return undefined
  return flag($.env.get('CLAUDE_CODE_ENABLE_TASKS'), OFF) ? 'todo' : 'tasks'
}
