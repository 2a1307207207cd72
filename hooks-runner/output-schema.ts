import { z } from 'zod'
import type { HooksWarning } from './errors.js'
import type { HookEventName } from './events.js'

/**
 * The schemas, built on first use: a run whose hooks print no JSON (or that has no hooks) never
 * needs them (zod builds ~100 objects for these, a tenth of what a cold start builds).
 */
function build() {
  const context = { additionalContext: z.string().optional() }
  const permission = {
    permissionDecision: z.enum(['allow', 'deny', 'ask', 'defer']).optional(),
    permissionDecisionReason: z.string().optional(),
  }
  const watchPaths = { watchPaths: z.array(z.string()).optional() }
  const elicitation = {
    action: z.enum(['accept', 'decline', 'cancel']).optional(),
    content: z.record(z.string(), z.unknown()).optional(),
  }
  const none = z.object({})

  /** `hookSpecificOutput` fields per event (spec §3.5). */
  const SPECIFIC = {
    Setup: z.object(context),
    SessionStart: z.object({
      ...context, ...watchPaths,
      initialUserMessage: z.string().optional(),
      sessionTitle: z.string().optional(),
      reloadSkills: z.boolean().optional(),
    }),
    InstructionsLoaded: none,
    UserPromptSubmit: z.object({ ...context, sessionTitle: z.string().optional(), suppressOriginalPrompt: z.boolean().optional() }),
    UserPromptExpansion: z.object({ ...context, suppressOriginalPrompt: z.boolean().optional() }),
    PreModelSwitch: z.object({ ...permission, permissionDecision: z.enum(['allow', 'deny', 'ask']).optional() }),
    PostModelSwitch: z.object(context),
    MessageDisplay: z.object({ displayContent: z.string().optional() }),
    PreToolUse: z.object({ ...permission, ...context, updatedInput: z.record(z.string(), z.unknown()).optional() }),
    PermissionRequest: z.object({
      decision: z.discriminatedUnion('behavior', [
        z.object({ behavior: z.literal('allow'), updatedInput: z.record(z.string(), z.unknown()).optional(), updatedPermissions: z.array(z.unknown()).optional() }),
        z.object({ behavior: z.literal('deny'), message: z.string().optional(), interrupt: z.boolean().optional() }),
      ]).optional(),
    }),
    PermissionDenied: z.object({ retry: z.boolean().optional() }),
    PostToolUse: z.object({
      ...context,
      classifierContext: z.string().optional(),
      updatedToolOutput: z.unknown().optional(),
      updatedMCPToolOutput: z.unknown().optional(),
    }),
    PostToolUseFailure: z.object(context),
    PostToolBatch: z.object(context),
    Notification: z.object(context),
    SubagentStart: z.object(context),
    SubagentStop: z.object(context),
    TaskCreated: none,
    TaskCompleted: none,
    TeammateIdle: none,
    Stop: z.object(context),
    StopFailure: none,
    ConfigChange: none,
    CwdChanged: z.object(watchPaths),
    DirectoryAdded: none,
    FileChanged: z.object(watchPaths),
    WorktreeCreate: z.object({ worktreePath: z.string().optional() }),
    WorktreeRemove: none,
    PreCompact: none,
    PostCompact: none,
    Elicitation: z.object(elicitation),
    ElicitationResult: z.object(elicitation),
    SessionEnd: none,
  } satisfies Record<HookEventName, z.ZodObject>

  /** The universal fields (spec §3.4), with the self-backgrounding marker of §4.5. */
  const universalSchema = z.object({
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    suppressOutput: z.boolean().optional(),
    systemMessage: z.string().optional(),
    terminalSequence: z.string().optional(),
    decision: z.enum(['block', 'approve']).optional(),
    reason: z.string().optional(),
    hookSpecificOutput: z.record(z.string(), z.unknown()).optional(),
    async: z.boolean().optional(),
    asyncTimeout: z.number().optional(),
  })
  return { SPECIFIC, universalSchema }
}

let built: ReturnType<typeof build> | undefined
const schemas = () => (built ??= build())

/** Every event-specific field, all optional: what any one hook may have said (spec §3.5). */
export interface SpecificOutput {
  additionalContext?: string
  permissionDecision?: 'allow' | 'deny' | 'ask' | 'defer'
  permissionDecisionReason?: string
  updatedInput?: Record<string, unknown>
  decision?:
    | { behavior: 'allow'; updatedInput?: Record<string, unknown>; updatedPermissions?: unknown[] }
    | { behavior: 'deny'; message?: string; interrupt?: boolean }
  retry?: boolean
  classifierContext?: string
  updatedToolOutput?: unknown
  updatedMCPToolOutput?: unknown
  sessionTitle?: string
  suppressOriginalPrompt?: boolean
  initialUserMessage?: string
  reloadSkills?: boolean
  watchPaths?: string[]
  worktreePath?: string
  action?: 'accept' | 'decline' | 'cancel'
  content?: Record<string, unknown>
  displayContent?: string
}

// Each event's schema must produce a subset of SpecificOutput; a field added to one without the other fails here.
type Check<T extends SpecificOutput> = T
type Specific = ReturnType<typeof build>['SPECIFIC']
type SchemasFit = { [E in HookEventName]: Check<z.infer<Specific[E]>> }

export type HookOutput = Omit<z.infer<ReturnType<typeof build>['universalSchema']>, 'hookSpecificOutput'> & { specific: SpecificOutput }

export type OutputCheck =
  | { ok: true; output: HookOutput; warnings: HooksWarning[] }
  | { ok: false; message: string }

const issuesText = (error: z.ZodError, base: string) =>
  error.issues.map((i) => `${[base, ...i.path].filter((p) => p !== '').join('.')}: ${i.message}`).join('; ')

/**
 * Validates a hook's JSON output for an event. A missing `hookEventName` is inferred with a warning
 * (R11); a different event name, or a field of the wrong type, fails the whole output.
 */
export function checkOutput(event: HookEventName, value: Record<string, unknown>, hook: string): OutputCheck {
  const warnings: HooksWarning[] = []
  const warn = (message: string, code: HooksWarning['code'] = 'HOOKS_WARN_OUTPUT_FIELD') => warnings.push({ code, message: `${hook}: ${message}`, hook })
  const { SPECIFIC, universalSchema } = schemas()
  const top = universalSchema.safeParse(value)
  if (!top.success) return { ok: false, message: `JSON validation failed: ${issuesText(top.error, '')}` }
  for (const key of Object.keys(value)) if (!(key in universalSchema.shape)) warn(`unknown top-level field "${key}" is ignored${key === 'additionalContext' ? ' (it belongs inside hookSpecificOutput)' : ''}`)
  const { hookSpecificOutput: raw, ...universal } = top.data
  let specific: SpecificOutput = {}
  if (raw !== undefined) {
    const { hookEventName, ...fields } = raw
    if (hookEventName === undefined) warn(`hookSpecificOutput has no hookEventName; taken as ${event}`, 'HOOKS_WARN_EVENT_NAME')
    else if (hookEventName !== event) return { ok: false, message: `JSON validation failed: hookSpecificOutput.hookEventName is ${JSON.stringify(hookEventName)}, expected "${event}"` }
    const schema = SPECIFIC[event]
    const parsed = schema.safeParse(fields)
    if (!parsed.success) return { ok: false, message: `JSON validation failed: ${issuesText(parsed.error, 'hookSpecificOutput')}` }
    for (const key of Object.keys(fields)) if (!(key in schema.shape)) warn(`hookSpecificOutput.${key} is not a ${event} field; ignored`)
    specific = parsed.data as SpecificOutput
  }
  return { ok: true, output: { ...universal, specific }, warnings }
}
