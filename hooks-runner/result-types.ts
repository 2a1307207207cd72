import type { HooksErrorCode, HooksWarning } from './errors.js'
import type { HandlerType, HookEventName } from './events.js'
import type { HookSource } from './hooks-config.js'
import type { HookOutput, SpecificOutput } from './output-schema.js'

export type HookOutcome = 'success' | 'blocking' | 'error' | 'timeout' | 'launch_error' | 'cancelled'
export type PermissionDecision = 'allow' | 'deny' | 'ask' | 'defer'

/** What one hook asks for, after the event's rules are applied (discarded fields are already gone). */
export interface HookEffect {
  /** The hook blocks the action (exit 2, `decision:"block"`, deny, `ok:false`, or failing closed). */
  block?: string
  /** PreToolUse / PreModelSwitch permission decision; legacy `approve`/`block` are mapped. */
  permission?: PermissionDecision
  permissionReason?: string
  /** `additionalContext`, or plain stdout on the events that take it as context. */
  context?: string
  /** `context` is the hook's plain stdout, not a JSON `additionalContext`. */
  contextIsStdout?: true
  systemMessage?: string
  /** `continue: false`. */
  stop?: { reason?: string }
  suppressOutput?: boolean
  terminalSequence?: string
  /** Event-specific fields (`updatedInput`, `updatedToolOutput`, `sessionTitle`, …). */
  specific: SpecificOutput
}

/** One hook's run, for observability and for merging. */
export interface HookRecord {
  /** The handler's position in settings order. */
  id: number
  event: HookEventName
  type: HandlerType
  /** Display name: the command line, URL, `server/tool` or the head of the prompt. */
  name: string
  source: HookSource
  /** Key path in its source, e.g. `hooks.PreToolUse[0].hooks[1]`. */
  path: string
  outcome: HookOutcome
  exitCode: number | null
  signal?: NodeJS.Signals | null
  httpStatus?: number
  /** Process id, which is also its process group id. */
  pid?: number
  stdout: string
  stderr: string
  durationMs: number
  /** The validated JSON output, when stdout (or the response body) held one. */
  output?: HookOutput
  /** Why the hook blocked, errored, timed out or could not start. */
  message?: string
  errorCode?: HooksErrorCode
  /** An error that `onError: "deny"` (or the event's rule) turned into a block. */
  failedClosed?: boolean
  async?: boolean
  effect: HookEffect
}

/** A hook that did not decide (error, timeout, launch error): shown to the user as `<hook name> hook error`. */
export interface HookProblem {
  hook: string
  source: HookSource
  outcome: HookOutcome
  message: string
}

export interface ContextItem {
  text: string
  /** Plain stdout taken as context, which Claude Code heads otherwise than an `additionalContext`. */
  stdout?: true
  hook: string
  source: HookSource
}

/** The merged result of one event firing (spec §3.7). Fields the event does not use stay undefined. */
export interface HookRunResult {
  event: HookEventName
  /** The match value the matchers were tested against (tool name, source, trigger, …). */
  matchQuery?: string
  /** `Event` or `Event:<match query>`, as hook notices name it. */
  hookName: string
  /** Some hook blocked: exit 2 on a blocking event, `decision:"block"`, deny, or a failed-closed error. */
  blocked: boolean
  /** Block reasons joined in settings order (JSON `reason`, else stderr). */
  blockReason?: string
  /** Every blocking hook's reason, in settings order. */
  blocks: { hook: string; source: HookSource; reason: string }[]
  /** PreToolUse / PreModelSwitch: the most restrictive decision, deny > defer > ask > allow. */
  decision?: PermissionDecision
  decisionReason?: string
  /** PreToolUse: the tool input to run instead (only with allow/ask or no decision). */
  updatedInput?: Record<string, unknown>
  /** Every context string, in settings order. */
  additionalContexts: ContextItem[]
  systemMessages: ContextItem[]
  /** `continue: false` from any hook: stop after this event. */
  stop?: { reason?: string; hook: string }
  suppressOutput: boolean
  terminalSequences: string[]
  /** Non-blocking failures to show as notices. */
  errors: HookProblem[]
  /** Runner warnings: banners, conflicts, inferred fields, skipped handlers. */
  warnings: HooksWarning[]
  /** PermissionRequest: deny beats allow; updatedPermissions of every allowing hook, in order. */
  permissionRequest?: {
    behavior: 'allow' | 'deny'
    updatedInput?: Record<string, unknown>
    updatedPermissions?: unknown[]
    message?: string
    interrupt?: boolean
  }
  /** PermissionDenied. */
  retry?: boolean
  /** PostToolUse. */
  updatedToolOutput?: unknown
  updatedMCPToolOutput?: unknown
  classifierContext?: string
  /** SessionStart / UserPromptSubmit. */
  sessionTitle?: string
  initialUserMessage?: string
  reloadSkills?: boolean
  suppressOriginalPrompt?: boolean
  /** SessionStart / CwdChanged / FileChanged: the new dynamic watch list. */
  watchPaths?: string[]
  /** MessageDisplay. */
  displayContent?: string
  /** Elicitation / ElicitationResult. */
  elicitation?: { action?: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }
  /** WorktreeCreate. */
  worktreePath?: string
  /** Per-hook records of the synchronous hooks, in settings order. */
  records: HookRecord[]
  /** Async hooks started by this firing; collect their results from the `BackgroundHooks` they report to. */
  background: BackgroundHookHandle[]
  /** Files handed out as CLAUDE_ENV_FILE (SessionStart, Setup, CwdChanged, FileChanged). */
  envFiles: string[]
  durationMs: number
}

export interface BackgroundHookHandle {
  id: number
  name: string
  source: HookSource
  /** Settles with the record when the process ends (never rejects). */
  done: Promise<BackgroundHookResult>
}

/** What an async hook delivers when it ends: context and messages for the next turn, or a wake-up. */
export interface BackgroundHookResult {
  record: HookRecord
  event: HookEventName
  additionalContext?: string
  systemMessage?: string
  /** asyncRewake and exit 2: wake the model now with this text (stderr, else stdout). */
  rewake?: string
  /** The hook's `rewakeMessage`: what the model reads before `rewake`. */
  rewakeMessage?: string
  /** The hook's `rewakeSummary`: the line the person sees while the wake-up is delivered. */
  rewakeSummary?: string
}
