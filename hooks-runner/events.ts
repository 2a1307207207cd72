import { basename } from 'node:path'

/** Every settings-hooks event, in lifecycle order. Names are case-sensitive. */
export const HOOK_EVENTS = [
  'Setup', 'SessionStart', 'InstructionsLoaded', 'UserPromptSubmit', 'UserPromptExpansion',
  'PreModelSwitch', 'PostModelSwitch', 'MessageDisplay', 'PreToolUse', 'PermissionRequest',
  'PermissionDenied', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'Notification',
  'SubagentStart', 'SubagentStop', 'TaskCreated', 'TaskCompleted', 'TeammateIdle', 'Stop',
  'StopFailure', 'ConfigChange', 'CwdChanged', 'DirectoryAdded', 'FileChanged', 'WorktreeCreate',
  'WorktreeRemove', 'PreCompact', 'PostCompact', 'Elicitation', 'ElicitationResult', 'SessionEnd',
] as const

export type HookEventName = (typeof HOOK_EVENTS)[number]
export type HandlerType = 'command' | 'http' | 'mcp_tool' | 'prompt' | 'agent' | 'callback'
type Discardable = 'systemMessage' | 'continue'

export interface EventSpec {
  /** The input field the matcher is tested against; a function derives it; null = no matcher support. */
  match: string | ((input: Record<string, unknown>) => unknown) | null
  /** FileChanged and StopFailure: only letters, digits, `_` and `|` make an exact list. */
  strictMatcher?: true
  /** What exit 2 does: blocks the action, is shown as a non-blocking notice, or is ignored. */
  exit2: 'block' | 'notice' | 'ignored'
  /** Which handler types the event accepts. */
  types: 'all' | 'no-llm' | 'command-mcp'
  /** Plain stdout on exit 0 becomes context for the model. */
  stdoutContext?: true
  /** The hook gets CLAUDE_ENV_FILE. */
  envFile?: true
  /** A tool event: the handler `if` rule is evaluated against the tool call. */
  tool?: true
  /** JSON fields the event ignores ('all' = everything but terminalSequence). */
  discards?: 'all' | readonly Discardable[]
  /** Top-level `decision: "block"` is honoured. */
  decisionBlock?: true
  /** A timeout (or a fail-closed error) blocks instead of failing open. */
  timeoutBlocks?: true
  /** A timed-out Agent SDK callback (a `callback` handler) blocks, though other handlers' timeouts fail open. */
  callbackTimeoutBlocks?: true
  /** Default timeout in seconds for command/http/mcp_tool handlers, when not 600. */
  commandTimeout?: number
}

const TOOL = { match: 'tool_name', tool: true } as const
const QUIET = ['systemMessage', 'continue'] as const
const canonicalModel = (i: Record<string, unknown>) =>
  typeof i.to_model === 'string' ? i.to_model.replace(/\[1m\]$/i, '') : undefined

/** The per-event rules of the protocol (spec §2.2, §3.3, §3.4, §4.4), one row per event. */
export const EVENT_SPECS = {
  Setup: { match: 'trigger', exit2: 'notice', types: 'command-mcp', envFile: true },
  SessionStart: { match: 'source', exit2: 'notice', types: 'command-mcp', stdoutContext: true, envFile: true },
  InstructionsLoaded: { match: 'load_reason', exit2: 'ignored', types: 'no-llm', discards: 'all' },
  UserPromptSubmit: { match: null, exit2: 'block', types: 'all', stdoutContext: true, decisionBlock: true, commandTimeout: 30, callbackTimeoutBlocks: true },
  UserPromptExpansion: { match: 'command_name', exit2: 'block', types: 'all', stdoutContext: true, decisionBlock: true, callbackTimeoutBlocks: true },
  PreModelSwitch: { match: canonicalModel, exit2: 'block', types: 'no-llm', decisionBlock: true, timeoutBlocks: true, commandTimeout: 30 },
  PostModelSwitch: { match: canonicalModel, exit2: 'notice', types: 'no-llm', stdoutContext: true, commandTimeout: 30 },
  MessageDisplay: { match: null, exit2: 'ignored', types: 'no-llm', discards: QUIET, commandTimeout: 10 },
  PreToolUse: { ...TOOL, exit2: 'block', types: 'all', callbackTimeoutBlocks: true },
  PermissionRequest: { ...TOOL, exit2: 'ignored', types: 'all' },
  PermissionDenied: { ...TOOL, exit2: 'ignored', types: 'all' },
  PostToolUse: { ...TOOL, exit2: 'block', types: 'all', decisionBlock: true },
  PostToolUseFailure: { ...TOOL, exit2: 'block', types: 'all', decisionBlock: true },
  PostToolBatch: { match: null, exit2: 'block', types: 'all', decisionBlock: true },
  Notification: { match: 'notification_type', exit2: 'ignored', types: 'no-llm', discards: 'all' },
  SubagentStart: { match: 'agent_type', exit2: 'notice', types: 'no-llm' },
  SubagentStop: { match: 'agent_type', exit2: 'block', types: 'all', decisionBlock: true },
  TaskCreated: { match: null, exit2: 'block', types: 'all', decisionBlock: true, discards: ['continue'] },
  TaskCompleted: { match: null, exit2: 'block', types: 'all' },
  TeammateIdle: { match: null, exit2: 'block', types: 'all' },
  Stop: { match: null, exit2: 'block', types: 'all', decisionBlock: true },
  StopFailure: { match: 'error', strictMatcher: true, exit2: 'ignored', types: 'no-llm', discards: 'all' },
  ConfigChange: { match: 'source', exit2: 'block', types: 'no-llm', decisionBlock: true, discards: QUIET },
  CwdChanged: { match: null, exit2: 'notice', types: 'no-llm', envFile: true, discards: ['continue'] },
  DirectoryAdded: { match: 'source', exit2: 'notice', types: 'no-llm', discards: ['continue'] },
  FileChanged: {
    match: (i) => (typeof i.file_path === 'string' ? basename(i.file_path) : undefined),
    strictMatcher: true, exit2: 'notice', types: 'no-llm', envFile: true, discards: ['continue'],
  },
  WorktreeCreate: { match: null, exit2: 'block', types: 'no-llm', discards: QUIET },
  WorktreeRemove: { match: null, exit2: 'notice', types: 'no-llm', discards: 'all' },
  PreCompact: { match: 'trigger', exit2: 'block', types: 'no-llm', decisionBlock: true, discards: QUIET },
  PostCompact: { match: 'trigger', exit2: 'notice', types: 'no-llm', discards: QUIET },
  Elicitation: { match: 'mcp_server_name', exit2: 'block', types: 'no-llm', discards: QUIET },
  ElicitationResult: { match: 'mcp_server_name', exit2: 'block', types: 'no-llm', discards: QUIET },
  SessionEnd: { match: 'reason', exit2: 'notice', types: 'no-llm', discards: 'all' },
} as const satisfies Record<HookEventName, EventSpec>

const EVENT_SET: ReadonlySet<string> = new Set(HOOK_EVENTS)

export function isHookEvent(name: string): name is HookEventName {
  return EVENT_SET.has(name)
}

export function eventSpec(event: HookEventName): EventSpec {
  return EVENT_SPECS[event]
}

/** The value the event's matcher is tested against; undefined when the event has no matcher support. */
export function matchValue(event: HookEventName, input: Record<string, unknown>): string | undefined {
  const { match } = eventSpec(event)
  if (match === null) return undefined
  const value = typeof match === 'function' ? match(input) : input[match]
  return typeof value === 'string' ? value : value === undefined || value === null ? undefined : String(value)
}

export function acceptsHandlerType(event: HookEventName, type: HandlerType): boolean {
  const { types } = eventSpec(event)
  if (types === 'all') return true
  if (types === 'no-llm') return type !== 'prompt' && type !== 'agent'
  return type === 'command' || type === 'mcp_tool' || type === 'callback'
}

const DEFAULT_TIMEOUT_S: Record<HandlerType, number> = { command: 600, http: 600, mcp_tool: 600, prompt: 30, agent: 60, callback: 60 }

/** A handler's timeout in seconds: its own `timeout`, else the per-type and per-event default (§4.4). */
export function defaultTimeoutSeconds(event: HookEventName, type: HandlerType): number {
  const spec = eventSpec(event)
  if (spec.commandTimeout !== undefined && type !== 'prompt' && type !== 'agent') return spec.commandTimeout
  return DEFAULT_TIMEOUT_S[type]
}

/**
 * The longest timeout a timer can hold: Node fires a longer one at once (after 1 ms), so a
 * `timeout` meant as "never" (past ~24.8 days) would kill the hook as soon as it started.
 */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1

/** Whether the event honours a JSON field, given its discard list. */
export function eventKeeps(event: HookEventName, field: Discardable | 'fields'): boolean {
  const { discards } = eventSpec(event)
  if (discards === undefined) return true
  if (discards === 'all') return false
  return field === 'fields' || !discards.includes(field)
}
