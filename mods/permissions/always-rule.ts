import type { PermissionUpdate } from '../../core/events/types.js'
import { ruleText } from './rule-parse.js'

export { ruleText }

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

/**
 * The rules "allow always" saves for an ask: for a compound Bash command, the parts no rule
 * allowed, one rule each (at most 5, as the permission check suggests them; spec §3.4), so the
 * next `npm test && git status` is allowed part by part; otherwise {@link alwaysRule}.
 */
export function alwaysRules(tool: string, input: Record<string, unknown>, suggestions: readonly PermissionUpdate[] = []): AlwaysRule[] {
  if (tool === 'Bash') {
    const parts = suggestions.flatMap((u) => (u.type === 'addRules' && u.behavior === 'allow' ? u.rules : []))
    if (parts.length > 0 && parts.every((r) => r.toolName === 'Bash' && r.ruleContent)) return parts.map((r) => ({ toolName: 'Bash', ruleContent: r.ruleContent }))
  }
  return [alwaysRule(tool, input)]
}

/** The rules as the chooser names them: `Bash(npm test), Bash(git status)`. */
export const rulesText = (rules: readonly AlwaysRule[]): string => rules.map(ruleText).join(', ')
