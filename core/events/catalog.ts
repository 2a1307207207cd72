import type * as T from './types.js'

/**
 * The one catalog of events, in lifecycle order (session → prompt → turn → tool → agent).
 * Each entry says when the event fires, what a handler may do (kind), how a failure is treated
 * (policy) and how much of its own time a handler gets (budget). Handler types derive from
 * `EventMap`; the runtime table below must cover every key (`satisfies`).
 */
export interface EventMap {
  'session.start': { e: T.SessionStartInput; r: T.SessionStartResult }
  'prompt.submit': { e: T.PromptSubmitInput; r: T.PromptSubmitResult }
  'prompt.mention': { e: T.PromptMentionInput; r: T.PromptMentionResult }
  'prompt.attachment': { e: T.PromptAttachmentInput; r: T.PromptAttachmentResult }
  'prompt.section': { e: T.PromptSectionInput; r: T.PromptSectionResult }
  'prompt.compose': { e: T.PromptComposeInput; r: T.PromptComposeResult }
  'command.run': { e: T.CommandRunInput; r: T.CommandRunResult }
  'config.set': { e: T.ConfigSetInput; r: T.ConfigSetResult }
  'model.switch': { e: T.ModelSwitchInput; r: T.ModelSwitchResult }
  'turn.start': { e: T.TurnStartInput; r: T.TurnStartResult }
  'turn.request': { e: T.TurnRequestInput; r: T.TurnRequestResult }
  'model.request': { e: T.ModelRequestInput; r: T.ModelRequestResult }
  'turn.step': { e: T.TurnStepInput; r: T.TurnStepResult; chunk: T.TurnStepChunk }
  'turn.overflow': { e: T.TurnOverflowInput; r: T.TurnOverflowResult }
  'turn.stop': { e: T.TurnStopInput; r: T.TurnStopResult }
  'turn.complete': { e: T.TurnCompleteInput; r: T.TurnCompleteResult }
  'tool.describe': { e: T.ToolDescribeInput; r: T.ToolDescribeResult }
  'tool.invalid': { e: T.ToolInvalidInput; r: T.ToolInvalidResult }
  'tool.call': { e: T.ToolCallInput; r: T.ToolCallResult }
  'tool.check': { e: T.ToolCheckInput; r: T.ToolCheckResult }
  'tool.batch': { e: T.ToolBatchInput; r: T.ToolBatchResult }
  'permission.ask': { e: T.PermissionAskInput; r: T.PermissionAskResult }
  'permission.denied': { e: T.PermissionDeniedInput; r: T.PermissionDeniedResult }
  'permission.update': { e: T.PermissionUpdateInput; r: T.PermissionUpdateResult }
  'agent.spawn': { e: T.AgentSpawnInput; r: T.AgentSpawnResult }
  'task.start': { e: T.TaskStartInput; r: T.TaskStartResult }
  'task.update': { e: T.TaskUpdateInput; r: T.TaskUpdateResult }
  'task.end': { e: T.TaskEndInput; r: T.TaskEndResult }
  'worktree.create': { e: T.WorktreeCreateInput; r: T.WorktreeCreateResult }
  'worktree.remove': { e: T.WorktreeRemoveInput; r: T.WorktreeRemoveResult }
  'session.message': { e: T.SessionMessageInput; r: T.SessionMessageResult }
  'message.display': { e: T.MessageDisplayInput; r: T.MessageDisplayResult }
  'session.compact': { e: T.SessionCompactInput; r: T.SessionCompactResult }
  'session.end': { e: T.SessionEndInput; r: T.SessionEndResult }
}

export type EventName = keyof EventMap
export type PayloadOf<N extends EventName> = EventMap[N]['e']
export type ResultOf<N extends EventName> = EventMap[N]['r']
export type StreamingEventName = { [N in EventName]: EventMap[N] extends { chunk: unknown } ? N : never }[EventName]
export type ChunkOf<N extends EventName> = EventMap[N] extends { chunk: infer C } ? C : never

/**
 * observe: the result and any rewrite of `e` are ignored; what is beneath always runs.
 * rewrite: a handler may pass a changed `e` to next and post-process the result, but must call next.
 * answer:  a handler may also return its own result without calling next.
 */
export type EventKind = 'observe' | 'rewrite' | 'answer'

/** open: a failed handler is skipped. closable: a handler may declare that its failure denies. */
export type FailurePolicy = 'open' | 'closable'

/**
 * Where an event fires. `session`: in every session; `turn`: in every turn of the main loop;
 * `tool`: with every tool call; `occasion`: only when its occasion arises (a mention, a denial, a
 * command…). `subagent`: a subagent's loop raises it too, with its `agentId`.
 */
export interface Fires {
  in: 'session' | 'turn' | 'tool' | 'occasion'
  subagent?: true
}

export interface EventSpec<N extends EventName = EventName> {
  when: string
  fires: Fires
  kind: EventKind
  policy: FailurePolicy
  budgetMs: number
  stream?: true
  /** Fields a rewrite may not change; a changed value fails the handler. */
  pinned?: readonly string[]
  /** The key a matcher usually narrows on (documentation and `mods stack`). */
  key?: string
  /** Cheap shape test of a handler's result; a false answer counts as a failure. */
  isResult: (r: unknown) => boolean
  /** The result beneath core when the caller passes no behaviour of its own. */
  echo?: (e: PayloadOf<N>) => ResultOf<N>
  /** The answer of a handler that failed closed. */
  failClosed?: (e: PayloadOf<N>, reason: string) => ResultOf<N>
}

const DEFAULT_BUDGET_MS = 10_000

const isObject = (r: unknown): r is Record<string, unknown> => typeof r === 'object' && r !== null
const has = (key: string, type: string) => (r: unknown) => isObject(r) && typeof r[key] === type
const textOrNull = (r: unknown) => isObject(r) && (typeof r.text === 'string' || r.text === null)
const denyOr = (ok: (r: Record<string, unknown>) => boolean) => (r: unknown) =>
  isObject(r) && (typeof r.deny === 'string' || ok(r))

export const catalog = {
  'session.start': {
    when: 'once per session for each loaded mod, before the first prompt; the place for $.tool.register',
    fires: { in: 'session' },
    kind: 'observe', policy: 'open', budgetMs: DEFAULT_BUDGET_MS,
    isResult: has('cwd', 'string'), echo: (e) => ({ cwd: e.cwd }),
  },
  'prompt.submit': {
    when: 'a prompt was submitted, before it enters the session',
    fires: { in: 'turn' },
    kind: 'answer', policy: 'closable', budgetMs: DEFAULT_BUDGET_MS, pinned: ['origin'],
    isResult: (r) => isObject(r) && (typeof r.drop === 'string' || typeof r.text === 'string'),
    failClosed: (_e, reason) => ({ drop: reason }),
  },
  'prompt.mention': {
    when: 'once per @path a prompt names, before the file is read',
    fires: { in: 'occasion' },
    kind: 'answer', policy: 'closable', budgetMs: DEFAULT_BUDGET_MS, pinned: ['mention', 'agentId'], key: 'path',
    isResult: denyOr((r) => r.type === null || typeof r.type === 'string'),
    failClosed: (_e, reason) => ({ deny: reason }),
  },
  'prompt.attachment': {
    when: 'once per context message the runtime injects for the model',
    fires: { in: 'occasion' },
    kind: 'answer', policy: 'open', budgetMs: DEFAULT_BUDGET_MS, pinned: ['type', 'origin', 'agentId'], key: 'type',
    isResult: textOrNull, echo: (e) => ({ text: e.text }),
  },
  'prompt.section': {
    when: 'once per named system-prompt section per session, as the prompt is assembled',
    fires: { in: 'session' },
    kind: 'answer', policy: 'open', budgetMs: DEFAULT_BUDGET_MS, pinned: ['name'], key: 'name',
    isResult: textOrNull, echo: (e) => ({ text: e.text }),
  },
  'prompt.compose': {
    when: 'the system prompt is rendered from its ordered sections, before a request is built',
    fires: { in: 'turn' },
    kind: 'answer', policy: 'open', budgetMs: DEFAULT_BUDGET_MS, pinned: ['model'], key: 'model',
    isResult: (r) => isObject(r) && Array.isArray(r.sections),
    echo: (e) => ({ sections: [...e.sections] }),
  },
  'command.run': {
    when: 'a slash command runs, typed or from $.command.run',
    fires: { in: 'occasion' },
    kind: 'answer', policy: 'open', budgetMs: DEFAULT_BUDGET_MS, pinned: ['origin'], key: 'command',
    isResult: denyOr(() => true),
  },
  'config.set': {
    when: 'a config row ($.config.list: model, effort) is about to change through $.config.set, whose mod\'s own handlers are skipped; a handler may clamp the value (next({ ...e, value })) or refuse it ({ deny }); beneath every handler a value of the row\'s kind is written (a model through model.switch), any other refused',
    fires: { in: 'occasion' },
    kind: 'answer', policy: 'closable', budgetMs: DEFAULT_BUDGET_MS, pinned: ['key', 'previous', 'provider', 'origin'], key: 'key',
    isResult: denyOr((r) => 'value' in r),
    failClosed: (_e, reason) => ({ deny: reason }),
  },
  'model.switch': {
    when: 'a model switch was asked for (/model, Query.setModel), or the session makes one itself (source auto: the fallback model takes over a turn; resume: a resumed session goes on with another model); the switch happens beneath the handlers, so after next() the new model is in effect; `context` in the result goes with the next request',
    fires: { in: 'occasion' },
    kind: 'answer', policy: 'closable', budgetMs: 30_000, pinned: ['from', 'requested', 'source'], key: 'to',
    isResult: denyOr((r) => typeof r.model === 'string'),
    failClosed: (_e, reason) => ({ deny: reason }),
  },
  'turn.start': {
    when: 'a turn begins, after prompt.submit settled and before its first model request',
    fires: { in: 'turn' },
    kind: 'observe', policy: 'open', budgetMs: DEFAULT_BUDGET_MS, pinned: ['turnId'],
    isResult: has('turnId', 'string'), echo: (e) => ({ turnId: e.turnId }),
  },
  'turn.request': {
    when: 'before each model request of a turn, with the history it would send and its size in tokens; a handler may have the history cut or compacted first, or end the turn; beneath every handler the request is sent as it stands',
    fires: { in: 'turn', subagent: true },
    kind: 'answer', policy: 'open', budgetMs: DEFAULT_BUDGET_MS, pinned: ['turnId', 'index', 'model', 'messages', 'tokens', 'compacted', 'agentId'],
    isResult: (r) => isObject(r) && (r.messages === undefined || Array.isArray(r.messages)) && (r.compact === undefined || isObject(r.compact))
      && (r.end === undefined || (isObject(r.end) && typeof r.end.terminal === 'string' && typeof r.end.text === 'string')),
    echo: () => ({}),
  },
  'model.request': {
    when: 'a request to the model is assembled, before it is sent: every round of the main loop and of subagents, and every $.model.complete and $.model.fork; a handler may rewrite it (cache breakpoints, say)',
    fires: { in: 'turn', subagent: true },
    kind: 'rewrite', policy: 'open', budgetMs: DEFAULT_BUDGET_MS, pinned: ['purpose', 'sections', 'turnId', 'agentId'], key: 'purpose',
    isResult: (r) => isObject(r) && isObject(r.request) && typeof r.request.model === 'string' && Array.isArray(r.request.messages),
    echo: (e) => ({ request: e.request }),
  },
  'turn.step': {
    when: 'one model request within a turn is about to be sent; handlers see and may rewrite its stream',
    fires: { in: 'turn', subagent: true },
    kind: 'answer', policy: 'open', budgetMs: DEFAULT_BUDGET_MS, stream: true,
    pinned: ['turnId', 'index', 'messageCount', 'agentId'],
    isResult: (r) => isObject(r) && typeof r.answer === 'string' && Array.isArray(r.toolUses),
  },
  'turn.overflow': {
    when: 'the API refused a request as too long for the context window; a handler may have the conversation compacted and the request sent again, and beneath every handler the turn ends as prompt_too_long',
    fires: { in: 'occasion' },
    kind: 'answer', policy: 'open', budgetMs: DEFAULT_BUDGET_MS, pinned: ['turnId', 'index', 'model', 'error', 'messages', 'tokens', 'agentId'],
    isResult: (r) => isObject(r) && (r.compact === undefined || isObject(r.compact)),
    echo: () => ({}),
  },
  'turn.stop': {
    when: 'the model answered without tool calls and the turn would end successfully (not on abort or API error); a handler may continue it',
    fires: { in: 'turn', subagent: true },
    kind: 'answer', policy: 'open', budgetMs: DEFAULT_BUDGET_MS, pinned: ['turnId', 'agentId'],
    isResult: (r) => isObject(r) && (r.decision === 'stop' || ((r.decision === 'continue' || r.decision === 'halt') && typeof r.reason === 'string')),
    echo: () => ({ decision: 'stop' }),
  },
  'turn.complete': {
    when: 'a turn has ended (answered, aborted or failed), as its duration is reported',
    fires: { in: 'turn', subagent: true },
    kind: 'rewrite', policy: 'open', budgetMs: DEFAULT_BUDGET_MS, pinned: ['turnId', 'agentId'],
    isResult: has('text', 'string'), echo: (e) => ({ text: e.answer, usage: e.usage }),
  },
  'tool.describe': {
    when: "once per tool per session, when its schema is first rendered for the model",
    fires: { in: 'tool' },
    kind: 'answer', policy: 'open', budgetMs: DEFAULT_BUDGET_MS, pinned: ['tool', 'provider'], key: 'tool',
    isResult: has('description', 'string'), echo: (e) => ({ description: e.description }),
  },
  'tool.invalid': {
    when: 'a tool call from the model failed its input schema, so it will not run: the error the model reads may be added to',
    fires: { in: 'occasion' },
    kind: 'rewrite', policy: 'open', budgetMs: DEFAULT_BUDGET_MS, pinned: ['tool', 'tool_use_id', 'input', 'agentId'], key: 'tool',
    isResult: has('message', 'string'), echo: (e) => ({ message: e.message }),
  },
  'tool.call': {
    when: 'a tool call is about to run: beneath it run the permission check (tool.check) and the tool',
    fires: { in: 'tool', subagent: true },
    kind: 'answer', policy: 'closable', budgetMs: DEFAULT_BUDGET_MS, pinned: ['tool', 'tool_use_id', 'agentId'], key: 'tool',
    isResult: denyOr((r) => 'result' in r),
    failClosed: (e, reason) => ({ deny: `${e.tool} call refused: ${reason}` }),
  },
  'tool.check': {
    when: 'the permission verdict for a tool call; with no permission mod every call is allowed',
    fires: { in: 'tool', subagent: true },
    kind: 'answer', policy: 'closable', budgetMs: DEFAULT_BUDGET_MS, pinned: ['tool', 'input', 'tool_use_id', 'agentId'], key: 'tool',
    isResult: (r) => isObject(r) && (r.decision === 'allow' || r.decision === 'ask' || r.decision === 'deny' || r.decision === 'defer'),
    echo: () => ({ decision: 'allow' }),
    failClosed: (_e, reason) => ({ decision: 'deny', reason }),
  },
  'tool.batch': {
    when: 'every tool call of one model response has its result, before they are sent back with the next request',
    fires: { in: 'tool', subagent: true },
    kind: 'rewrite', policy: 'open', budgetMs: DEFAULT_BUDGET_MS, pinned: ['turnId', 'calls', 'agentId'],
    isResult: (r) => isObject(r) && (r.context === undefined || Array.isArray(r.context)) && (r.halt === undefined || typeof r.halt === 'string'),
    echo: () => ({}),
  },
  'permission.ask': {
    when: 'the permission check (tool.check) asks about a tool call, after every tool.check handler: the ask is about to go on to the approver (canUseTool), or with none be refused; a handler may answer it instead',
    fires: { in: 'occasion' },
    kind: 'answer', policy: 'closable', budgetMs: DEFAULT_BUDGET_MS, pinned: ['tool', 'input', 'tool_use_id', 'canAsk', 'agentId'], key: 'tool',
    isResult: (r) => isObject(r) && (r.decision === 'allow' || r.decision === 'ask' || r.decision === 'deny'),
    echo: () => ({ decision: 'ask' }),
    failClosed: (_e, reason) => ({ decision: 'deny', reason }),
  },
  'permission.denied': {
    when: 'the permission check denied a tool call (a rule, a mode, a hook or the auto mode classifier), before the model reads why',
    fires: { in: 'occasion' },
    kind: 'rewrite', policy: 'open', budgetMs: DEFAULT_BUDGET_MS, pinned: ['tool', 'tool_use_id', 'rule', 'agentId'], key: 'tool',
    isResult: has('reason', 'string'), echo: (e) => ({ reason: e.reason }),
  },
  'permission.update': {
    when: 'whoever approved an asked-for tool call also changed the permissions (canUseTool updatedPermissions), before the call runs',
    fires: { in: 'occasion' },
    kind: 'observe', policy: 'open', budgetMs: DEFAULT_BUDGET_MS, pinned: ['tool', 'tool_use_id', 'agentId'], key: 'tool',
    isResult: (r) => isObject(r) && Array.isArray(r.updates), echo: (e) => ({ updates: e.updates }),
  },
  'agent.spawn': {
    when: 'the Agent tool is about to start a subagent',
    fires: { in: 'occasion' },
    kind: 'answer', policy: 'closable', budgetMs: DEFAULT_BUDGET_MS, pinned: ['tool_use_id', 'parentModel', 'parentAgentId'], key: 'subagentType',
    isResult: denyOr((r) => typeof r.model === 'string'),
    failClosed: (_e, reason) => ({ deny: reason }),
  },
  'task.start': {
    when: 'a task started (a subagent, or a shell in the background), before its task_started message; raised for the mod that runs it',
    fires: { in: 'occasion' },
    kind: 'observe', policy: 'open', budgetMs: DEFAULT_BUDGET_MS, key: 'taskType',
    isResult: has('taskId', 'string'), echo: (e) => ({ taskId: e.taskId }),
  },
  'task.update': {
    when: 'a running task changed: it moved to the background, or it ended (the status patch comes before task.end)',
    fires: { in: 'occasion' },
    kind: 'observe', policy: 'open', budgetMs: DEFAULT_BUDGET_MS,
    isResult: has('taskId', 'string'), echo: (e) => ({ taskId: e.taskId }),
  },
  'task.end': {
    when: 'a task ended (completed, failed or stopped), before its task_notification message; a background task\'s report is then queued as a turn of its own',
    fires: { in: 'occasion' },
    kind: 'observe', policy: 'open', budgetMs: DEFAULT_BUDGET_MS, key: 'status',
    isResult: has('taskId', 'string'), echo: (e) => ({ taskId: e.taskId }),
  },
  'worktree.create': {
    when: 'a worktree is to be made for isolated work ($.worktree.create: a subagent\'s isolation "worktree", EnterWorktree); a handler may make it itself and answer its path (a WorktreeCreate hook, for a VCS other than git), or refuse; beneath every handler the caller makes it (git)',
    fires: { in: 'occasion' },
    kind: 'answer', policy: 'closable', budgetMs: DEFAULT_BUDGET_MS, pinned: ['name', 'cwd'],
    isResult: denyOr((r) => typeof r.path === 'string'),
    failClosed: (_e, reason) => ({ deny: reason }),
  },
  'worktree.remove': {
    when: 'a worktree a worktree.create handler made (not git) is to be removed ($.worktree.remove: ExitWorktree with action "remove"); the handlers remove it (a WorktreeRemove hook), nothing beneath them does',
    fires: { in: 'occasion' },
    kind: 'observe', policy: 'open', budgetMs: DEFAULT_BUDGET_MS, pinned: ['path'],
    isResult: has('path', 'string'), echo: (e) => ({ path: e.path }),
  },
  'session.message': {
    when: 'a message enters the conversation record (the prompt, each block, each tool result, the result), before the caller sees it',
    fires: { in: 'turn', subagent: true },
    kind: 'observe', policy: 'open', budgetMs: DEFAULT_BUDGET_MS, key: 'shown',
    isResult: (r) => isObject(r) && isObject(r.message), echo: (e) => ({ message: e.message }),
  },
  'message.display': {
    when: 'once per completed assistant text block, after it was recorded and before the caller sees it; where text streams (includePartialMessages, the terminal) once per batch of completed lines instead, held until it is answered, the last batch `final`; the answer changes only what is shown',
    fires: { in: 'turn' },
    kind: 'rewrite', policy: 'open', budgetMs: DEFAULT_BUDGET_MS, pinned: ['turnId', 'messageId', 'index', 'final', 'agentId'],
    isResult: has('text', 'string'), echo: (e) => ({ text: e.delta }),
  },

  'session.compact': {
    when: 'the conversation is about to be compacted (manual, auto or by a mod)',
    fires: { in: 'occasion' },
    kind: 'answer', policy: 'open', budgetMs: DEFAULT_BUDGET_MS, pinned: ['trigger', 'agentId'], key: 'trigger',
    isResult: (r) => isObject(r) && (typeof r.skip === 'string' || Array.isArray(r.messages)),
  },
  'session.end': {
    when: 'once when the session ends; all handlers together share a short wall-clock bound, raised to the longest budget a handler declared',
    fires: { in: 'session' },
    kind: 'observe', policy: 'open', budgetMs: 1_500,
    isResult: has('sessionId', 'string'), echo: (e) => ({ sessionId: e.sessionId }),
  },
} satisfies { [N in EventName]: EventSpec<N> }

export const EVENT_NAMES = Object.keys(catalog) as EventName[]

export function isEventName(name: string): name is EventName {
  return Object.prototype.hasOwnProperty.call(catalog, name)
}

export function specOf<N extends EventName>(name: N): EventSpec<N> {
  return catalog[name] as unknown as EventSpec<N>
}
