import { z } from 'zod'
import type { SDKMessage } from '../loop/messages.js'
import type { ModelRequest } from '../model/types.js'
import type { EventName, PayloadOf } from './catalog.js'
import type { PermissionUpdate } from './types.js'

/**
 * The payload schema of every catalog event, for conformance tests and tools that check what a
 * caller raised. Not used on the dispatch path: a payload is typed where it is built. Each schema
 * must produce its event's payload type (`satisfies` below), so a payload field added to
 * types.ts without its schema does not compile. Objects are loose: an added optional field is
 * not an error here.
 */

const text = z.string()
const agentId = z.string().optional()
const configValue = z.union([z.boolean(), z.string(), z.number(), z.array(z.string()), z.null()])
// Its entries are checked by the permissions mod that made or applies them; here, that each is an entry.
const permissionUpdate = z.custom<PermissionUpdate>((v) => typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string')
const usage = z.looseObject({
  input_tokens: z.number(), output_tokens: z.number(), cache_read_input_tokens: z.number(), cache_creation_input_tokens: z.number(),
  cache_creation: z.looseObject({ ephemeral_5m_input_tokens: z.number(), ephemeral_1h_input_tokens: z.number() }).optional(),
})

const origin = z.union([
  z.looseObject({ kind: z.enum(['sdk', 'composer', 'auto-continuation', 'bash']) }),
  z.looseObject({ kind: z.literal('plugin'), name: text, asUser: z.boolean().optional() }),
  z.looseObject({ kind: z.literal('task-notification'), taskId: text }),
])
const taskUsage = z.looseObject({ total_tokens: z.number(), tool_uses: z.number(), duration_ms: z.number() })
const sessionMessage = z.looseObject({ role: z.enum(['user', 'assistant']), content: z.unknown() })
// A request's own shape is the Messages API's (core/model/types.ts); here its frame is checked.
const requestFrame = z.looseObject({
  model: text, max_tokens: z.number().int(), system: z.array(z.looseObject({ type: z.literal('text'), text: z.string() })).optional(),
  messages: z.array(sessionMessage), tools: z.array(z.looseObject({ name: text })).optional(),
})
const modelRequest = z.custom<ModelRequest>((r) => requestFrame.safeParse(r).success, 'not a model request')
const MESSAGE_TYPES = new Set(['system', 'assistant', 'user', 'stream_event', 'result'])
// A message's own shape is the SDK's (core/loop/messages.ts); here only its type is checked.
const sdkMessage = z.custom<SDKMessage>((m) => typeof m === 'object' && m !== null && MESSAGE_TYPES.has((m as { type?: string }).type ?? ''), 'not an SDK message')

export const payloadSchemas = {
  'session.start': z.looseObject({
    cwd: text, surface: z.literal('terminal').nullable(), isInteractive: z.boolean(), canAsk: z.boolean().optional(), waitsForInput: z.boolean(), sessionId: text,
    source: z.enum(['startup', 'resume', 'fork', 'clear', 'compact']), transcriptPath: text,
    resumedFrom: z.looseObject({
      sessionId: text, transcriptPath: text, leafUuid: text.nullable(), lastActivityMs: z.number(),
      carried: z.looseObject({ todos: z.array(z.unknown()).optional(), readFiles: z.array(z.looseObject({ path: text, whole: z.boolean() })).optional() }).optional(),
      lastResponse: z.looseObject({ atMs: z.number(), contextTokens: z.number() }).optional(),
      attachments: z.record(z.string(), z.looseObject({})).optional(),
    }).optional(),
  }),
  'prompt.submit': z.looseObject({ text, attachments: z.array(z.looseObject({ type: z.enum(['image', 'document']), mediaType: z.string().optional(), filename: z.string().optional() })).optional(), context: z.array(text).optional(), origin, wait: z.boolean(), turnId: text.optional() }),
  'prompt.mention': z.looseObject({ mention: text, path: text, offset: z.number().optional(), limit: z.number().optional(), agentId, from: text.optional() }),
  'prompt.attachment': z.looseObject({
    type: text, text,
    origin: z.union([z.looseObject({ kind: z.literal('engine') }), z.looseObject({ kind: z.enum(['hook', 'plugin']), event: text })]),
    agentId,
  }),
  'prompt.section': z.looseObject({ name: text, text: text.nullable() }),
  'prompt.compose': z.looseObject({
    model: text, tools: z.array(text).readonly(), agentId,
    sections: z.array(z.looseObject({ id: text, text, scope: z.enum(['shared', 'session']) })).readonly(),
  }),
  'command.run': z.looseObject({ command: text, args: z.string(), origin }),
  'config.set': z.looseObject({ key: text, value: configValue, previous: configValue, provider: text, origin: z.looseObject({ kind: z.literal('plugin'), name: text }) }),
  'model.switch': z.looseObject({
    from: text, to: text, requested: text.nullable(), source: z.enum(['command', 'sdk', 'auto', 'resume']), contextTokens: z.number(),
    promptCacheWarm: z.boolean(), cacheTtl: z.enum(['5m', '1h']), estimatedCacheWriteUsd: z.number(), pricing: z.enum(['catalog', 'default']),
  }),
  'turn.start': z.looseObject({ text: z.string(), turnId: text }),
  'turn.request': z.looseObject({
    turnId: text, index: z.number().int(), model: text, messages: z.array(sessionMessage).readonly(), tokens: z.number().int().min(0), agentId,
    compacted: z.union([z.looseObject({ tokensBefore: z.number(), tokensAfter: z.number() }), z.looseObject({ skip: z.string(), isFailed: z.literal(true).optional() })]).optional(),
  }),
  'model.request': z.looseObject({
    purpose: z.enum(['turn', 'subagent', 'complete', 'fork']), request: modelRequest, turnId: text.optional(), agentId,
    sections: z.array(z.looseObject({ id: text, scope: z.enum(['shared', 'session']) })).readonly(),
  }),
  'turn.step': z.looseObject({
    turnId: text, index: z.number().int(), model: text, messageCount: z.number().int(), agentId,
    effort: z.enum(['low', 'medium', 'high', 'xhigh', 'max']).optional(),
  }),
  'turn.overflow': z.looseObject({
    turnId: text, index: z.number().int(), model: text, error: z.string(), messages: z.array(sessionMessage).readonly(), tokens: z.number().int().min(0), agentId,
  }),
  'turn.stop': z.looseObject({ turnId: text, answer: z.string(), stopHookActive: z.boolean(), agentId }),
  'turn.complete': z.looseObject({
    answer: z.string(), durationMs: z.number(), isAborted: z.boolean(), turnId: text,
    reason: z.enum(['answer', 'aborted', 'refusal', 'error']), usage: usage.optional(), agentId,
  }),
  'tool.describe': z.looseObject({ tool: text, description: z.string(), provider: text }),
  'tool.invalid': z.looseObject({ tool: text, tool_use_id: text, input: z.unknown(), message: z.string(), agentId }),
  'tool.call': z.looseObject({ tool: text, tool_use_id: text, agentId }),
  'tool.check': z.looseObject({
    tool: text, input: z.unknown(), tool_use_id: text.optional(), agentId, canAsk: z.boolean().optional(),
    verdict: z.looseObject({ decision: z.enum(['allow', 'ask', 'deny', 'defer']), reason: text.optional(), hook: text.optional() }).optional(),
  }),
  'tool.batch': z.looseObject({
    turnId: text, agentId,
    calls: z.array(z.looseObject({ tool: text, tool_use_id: text, input: z.unknown(), result: z.string(), isError: z.boolean() })).readonly(),
  }),
  'permission.ask': z.looseObject({
    tool: text, input: z.unknown(), tool_use_id: text, canAsk: z.boolean().optional(), reason: z.string().optional(), rule: text.optional(),
    hook: text.optional(), suggestions: z.array(permissionUpdate).optional(), blockedPath: text.optional(), agentId,
  }),
  'permission.denied': z.looseObject({
    tool: text, input: z.unknown(), tool_use_id: text, reason: z.string(), rule: text.optional(), hook: text.optional(), agentId,
  }),
  'permission.update': z.looseObject({ tool: text, tool_use_id: text.optional(), updates: z.array(z.unknown()).readonly(), agentId }),
  'agent.spawn': z.looseObject({
    tool_use_id: text, prompt: z.string(), description: z.string(), subagentType: text, model: text.optional(),
    parentModel: text, parentAgentId: text.optional(), cwd: text.optional(), context: z.array(z.string()).readonly().optional(), omitClaudeMd: z.boolean().optional(),
  }),
  'task.start': z.looseObject({
    taskId: text, taskType: text, description: z.string(), isBackgrounded: z.boolean(), outputFile: text, toolUseId: text.optional(),
    subagentType: text.optional(), prompt: z.string().optional(), spawnDepth: z.number().int().optional(), ambient: z.boolean().optional(), mod: text,
  }),
  'task.update': z.looseObject({
    taskId: text,
    patch: z.looseObject({
      status: z.enum(['running', 'completed', 'failed', 'killed']).optional(), description: z.string().optional(), end_time: z.number().optional(),
      error: z.string().optional(), is_backgrounded: z.boolean().optional(),
    }),
  }),
  'task.end': z.looseObject({
    taskId: text, status: z.enum(['completed', 'failed', 'stopped']), summary: z.string(), outputFile: text, toolUseId: text.optional(),
    usage: taskUsage.optional(), notified: z.boolean(),
  }),
  'worktree.create': z.looseObject({ name: text, cwd: text }),
  'worktree.remove': z.looseObject({ path: text }),
  'session.message': z.looseObject({ message: sdkMessage, shown: z.boolean(), agentId }),
  'message.display': z.looseObject({ turnId: text, messageId: text, index: z.number().int(), final: z.boolean(), delta: z.string(), agentId }),
  'session.compact': z.looseObject({
    trigger: z.enum(['manual', 'auto', 'plugin']), instructions: z.string().optional(),
    messages: z.array(sessionMessage).readonly(), agentId, tokens: z.number().optional(),
  }),
  'session.end': z.looseObject({ reason: z.enum(['clear', 'resume', 'logout', 'prompt_input_exit', 'other']), sessionId: text }),
} satisfies { [N in EventName]: z.ZodType<PayloadOf<N>> }

/** Parses `e` against its event's schema: the issues as `path: message` lines, empty when it passes. */
export function checkPayload(event: EventName, e: unknown): string[] {
  const r = payloadSchemas[event].safeParse(e)
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`)
}
