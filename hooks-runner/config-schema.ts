import { z } from 'zod'
import { onFirstUse } from './on-first-use.js'

// Built on first use: a run reads them only when some settings file, plugin or agent holds hooks.

/** Fields every handler type accepts (spec §1.6), plus modloop's fail-closed and on/off switches (§5.10 R1, R5). */
const common = onFirstUse(() => ({
  if: z.string().optional(),
  timeout: z.number().positive().optional(),
  statusMessage: z.string().optional(),
  once: z.boolean().optional(),
  /** What an error (timeout, launch failure, crash, invalid output) means: fail open or closed. */
  onError: z.enum(['allow', 'deny']).optional(),
  enabled: z.boolean().optional(),
}))

export const commandHandlerSchema = onFirstUse(() => z.object({
  type: z.literal('command'),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  async: z.boolean().optional(),
  asyncRewake: z.boolean().optional(),
  /** An asyncRewake hook's wake-up: the line the model reads before the hook's output. */
  rewakeMessage: z.string().optional(),
  /** An asyncRewake hook's wake-up: the short line shown to the person while it is delivered. */
  rewakeSummary: z.string().optional(),
  shell: z.enum(['bash', 'powershell']).optional(),
  ...common(),
}))

export const httpHandlerSchema = onFirstUse(() => z.object({
  type: z.literal('http'),
  url: z.url({ protocol: /^https?$/ }),
  headers: z.record(z.string(), z.string()).optional(),
  allowedEnvVars: z.array(z.string()).optional(),
  ...common(),
}))

export const mcpToolHandlerSchema = onFirstUse(() => z.object({
  type: z.literal('mcp_tool'),
  server: z.string().min(1),
  tool: z.string().min(1),
  input: z.record(z.string(), z.unknown()).optional(),
  ...common(),
}))

export const promptHandlerSchema = onFirstUse(() => z.object({
  type: z.literal('prompt'),
  prompt: z.string().min(1),
  model: z.string().optional(),
  continueOnBlock: z.boolean().optional(),
  ...common(),
}))

export const agentHandlerSchema = onFirstUse(() => z.object({
  type: z.literal('agent'),
  prompt: z.string().min(1),
  model: z.string().optional(),
  ...common(),
}))

/**
 * An in-process function (the Agent SDK's callback hooks): called with the hook input, its answer
 * is read as a command's JSON output. A function cannot come from a settings file, only from a
 * host that builds its sources in memory.
 */
export const callbackHandlerSchema = onFirstUse(() => z.object({
  type: z.literal('callback'),
  callback: z.custom<HookCallbackFn>((v) => typeof v === 'function', 'expected a function (callback hooks come from query() options, not from settings files)'),
  /** How listings name it. */
  name: z.string().optional(),
  ...common(),
}))

/** What a callback hook is handed and answers: the hook input, the tool_use_id of tool events, an abort signal; the JSON output. */
export type HookCallbackFn = (input: Record<string, unknown>, toolUseId: string | undefined, options: { signal: AbortSignal }) => unknown

/** The schema of each handler `type`. */
export const handlerSchemas = onFirstUse(() => ({
  command: commandHandlerSchema(),
  http: httpHandlerSchema(),
  mcp_tool: mcpToolHandlerSchema(),
  prompt: promptHandlerSchema(),
  agent: agentHandlerSchema(),
  callback: callbackHandlerSchema(),
}) as const)

/** A matcher group; `hooks` is checked handler by handler so one bad handler does not drop its siblings. */
export const matcherGroupSchema = onFirstUse(() => z.object({
  matcher: z.string().optional(),
  hooks: z.array(z.unknown()),
  /** Run this group's handlers one after another, each seeing the previous one's rewritten tool input (R4). */
  sequential: z.boolean().optional(),
}))

/** The hook-related keys of a settings file; every other key belongs to someone else and is left alone. */
export const settingsHooksSchema = onFirstUse(() => z.object({
  hooks: z.record(z.string(), z.unknown()).optional(),
  disableAllHooks: z.boolean().optional(),
  allowManagedHooksOnly: z.boolean().optional(),
  strictPluginOnlyCustomization: z.union([z.boolean(), z.array(z.string())]).optional(),
  allowedHttpHookUrls: z.array(z.string()).optional(),
  httpHookAllowedEnvVars: z.array(z.string()).optional(),
}))

export type CommandHandler = z.infer<ReturnType<typeof commandHandlerSchema>>
export type HttpHandler = z.infer<ReturnType<typeof httpHandlerSchema>>
export type McpToolHandler = z.infer<ReturnType<typeof mcpToolHandlerSchema>>
export type PromptHandler = z.infer<ReturnType<typeof promptHandlerSchema>>
export type AgentHandler = z.infer<ReturnType<typeof agentHandlerSchema>>
export type CallbackHandler = z.infer<ReturnType<typeof callbackHandlerSchema>>
export type HandlerConfig = CommandHandler | HttpHandler | McpToolHandler | PromptHandler | AgentHandler | CallbackHandler
export type SettingsHooks = z.infer<ReturnType<typeof settingsHooksSchema>>

/** `hooks.PreToolUse[0].hooks[1].command` from a zod issue path under a base path. */
export function keyPath(base: string, path: readonly PropertyKey[]): string {
  let out = base
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out ? `.${String(key)}` : String(key)
  return out
}

/** Keys of `raw` that `schema` does not declare: tolerated, but reported. */
export function unknownKeys(raw: object, schema: { shape: Record<string, unknown> }): string[] {
  return Object.keys(raw).filter((k) => !(k in schema.shape))
}
