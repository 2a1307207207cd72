import type { ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk'

/** How an editor shows one tool call: a title, a kind (its icon), the files it touches, a diff for a change. */
export interface ToolInfo {
  title: string
  kind: ToolKind
  locations: ToolCallLocation[]
  content: ToolCallContent[]
}

const KINDS: Record<string, ToolKind> = {
  Read: 'read', NotebookRead: 'read', Write: 'edit', Edit: 'edit', MultiEdit: 'edit', NotebookEdit: 'edit',
  Bash: 'execute', BashOutput: 'execute', KillShell: 'execute', Glob: 'search', Grep: 'search', LS: 'search',
  WebFetch: 'fetch', WebSearch: 'fetch', TodoWrite: 'think', Agent: 'think', Task: 'think', ExitPlanMode: 'switch_mode',
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined)

/** The title, kind, locations and (for Write and Edit) the diff — for ExitPlanMode the plan — of a tool call, from its name and input. */
export function toolInfo(name: string, input: Record<string, unknown>): ToolInfo {
  const kind = KINDS[name] ?? 'other'
  const path = str(input.file_path) ?? str(input.notebook_path)
  const locations: ToolCallLocation[] = path ? [{ path, ...(typeof input.offset === 'number' ? { line: input.offset } : {}) }] : []
  return { title: titleOf(name, input, path), kind, locations, content: diffOf(name, input, path) }
}

function titleOf(name: string, input: Record<string, unknown>, path: string | undefined): string {
  switch (name) {
    case 'Bash': return str(input.command) ?? 'Bash'
    case 'Read': return `Read ${path ?? ''}${typeof input.offset === 'number' ? ` (from line ${input.offset})` : ''}`.trim()
    case 'Write': case 'Edit': case 'MultiEdit': return `${name} ${path ?? ''}`.trim()
    case 'Glob': return `Find ${str(input.pattern) ?? ''}${str(input.path) ? ` in ${input.path as string}` : ''}`.trim()
    case 'Grep': return `Search "${str(input.pattern) ?? ''}"${str(input.path) ? ` in ${input.path as string}` : ''}`
    case 'WebFetch': return `Fetch ${str(input.url) ?? ''}`.trim()
    case 'WebSearch': return `Search the web: ${str(input.query) ?? ''}`
    case 'TodoWrite': return 'Update the plan'
    case 'Agent': case 'Task': return str(input.description) ?? 'Run a subagent'
    case 'ExitPlanMode': return 'Ready to code?'
    default: return name
  }
}

/** Write shows the new content against nothing known; Edit the replaced text against its replacement; ExitPlanMode its plan. */
function diffOf(name: string, input: Record<string, unknown>, path: string | undefined): ToolCallContent[] {
  if (name === 'ExitPlanMode') return str(input.plan) ? [{ type: 'content', content: { type: 'text', text: input.plan as string } }] : []
  if (!path) return []
  if (name === 'Write' && typeof input.content === 'string') return [{ type: 'diff', path, oldText: null, newText: input.content }]
  if (name === 'Edit' && typeof input.new_string === 'string') {
    return [{ type: 'diff', path, oldText: typeof input.old_string === 'string' && input.old_string !== '' ? input.old_string : null, newText: input.new_string }]
  }
  return []
}
