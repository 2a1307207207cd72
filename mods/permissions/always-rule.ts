export { ruleText } from './rule-parse.js'

const EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit'])

export interface AlwaysRule { toolName: string; ruleContent?: string }

/**
 * The rule an "allow always" answer saves, wherever it is asked (the terminal, an editor over
 * ACP): the exact command for Bash, the domain for WebFetch, edits as a class, else the tool.
 */
export function alwaysRule(tool: string, input: Record<string, unknown>): AlwaysRule {
  if (tool === 'Bash' && typeof input.command === 'string') return { toolName: 'Bash', ruleContent: input.command }
  if (tool === 'WebFetch' && typeof input.url === 'string') {
    try {
      return { toolName: 'WebFetch', ruleContent: `domain:${new URL(input.url).hostname}` }
    } catch {
      return { toolName: 'WebFetch' }
    }
  }
  if (EDIT_TOOLS.has(tool)) return { toolName: 'Edit' }
  return { toolName: tool }
}
