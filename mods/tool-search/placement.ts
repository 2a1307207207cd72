/**
 * The built-in tools Claude Code keeps behind ToolSearch: the ones a session seldom needs, so
 * their schemas stay out of every request until the model loads them. The file, shell, agent
 * and skill tools stay upfront.
 */
const DEFERRED_BUILTINS = new Set([
  'CronCreate', 'CronDelete', 'CronList', 'EnterPlanMode', 'ExitPlanMode', 'EnterWorktree', 'ExitWorktree',
  'Monitor', 'NotebookEdit', 'SendMessage', 'TaskStop', 'WebFetch', 'WebSearch',
])

/** Whether a tool nobody placed goes behind ToolSearch: every MCP tool, and the seldom-used built-ins. */
export function deferredByDefault(tool: string): boolean {
  return tool.startsWith('mcp__') || DEFERRED_BUILTINS.has(tool)
}
