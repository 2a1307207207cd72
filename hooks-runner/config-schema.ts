import { z } from 'zod'

/** Fields every handler type accepts (spec §1.6), plus modloop's fail-closed and on/off switches (§5.10 R1, R5). */
const common = {
  if: z.string().optional(),
  timeout: z.number().positive().optional(),
  statusMessage: z.string().optional(),
  once: z.boolean().optional(),
  /** What an error (timeout, launch failure, crash, invalid output) means: fail open or closed. */
  onError: z.enum(['allow', 'deny']).optional(),
  enabled: z.boolean().optional(),
}

export const commandHandlerSchema = z.object({
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
  ...common,
})

export const httpHandlerSchema = z.object({
  type: z.literal('http'),
  url: z.url({ protocol: /^https?$/ }),
  headers: z.record(z.string(), z.string()).optional(),
  allowedEnvVars: z.array(z.string()).optional(),
  ...common,
})

export const mcpToolHandlerSchema = z.object({
  type: z.literal('mcp_tool'),
  server: z.string().min(1),
  tool: z.string().min(1),
  input: z.record(z.string(), z.unknown()).optional(),
  ...common,
})

export const promptHandlerSchema = z.object({
  type: z.literal('prompt'),
  prompt: z.string().min(1),
  model: z.string().optional(),
  continueOnBlock: z.boolean().optional(),
  ...common,
})

export const agentHandlerSchema = z.object({
  type: z.literal('agent'),
  prompt: z.string().min(1),
  model: z.string().optional(),
  ...common,
})

/**
 * An in-process function (the Agent SDK's callback hooks): called with the hook input, its answer
 * is read as a command's JSON output. A function cannot come from a settings file, only from a
 * host that builds its sources in memory.
 */
export const callbackHandlerSchema = z.object({
  type: z.literal('callback'),
  callback: z.custom<HookCallbackFn>((v) => typeof v === 'function', 'expected a function (callback hooks come from query() options, not from settings files)'),
  /** How listings name it. */
  name: z.string().optional(),
  ...common,
})

/** What a callback hook is handed and answers: the hook input, the tool_use_id of tool events, an abort signal; the JSON output. */
export type HookCallbackFn = (input: Record<string, unknown>, toolUseId: string | undefined, options: { signal: AbortSignal }) => unknown

export const HANDLER_SCHEMAS = {
  command: commandHandlerSchema,
  http: httpHandlerSchema,
  mcp_tool: mcpToolHandlerSchema,
  prompt: promptHandlerSchema,
  agent: agentHandlerSchema,
  callback: callbackHandlerSchema,
} as const

/** A matcher group; `hooks` is checked handler by handler so one bad handler does not drop its siblings. */
export const matcherGroupSchema = z.object({
  matcher: z.string().optional(),
  hooks: z.array(z.unknown()),
  /** Run this group's handlers one after another, each seeing the previous one's rewritten tool input (R4). */
  sequential: z.boolean().optional(),
})

/** The hook-related keys of a settings file; every other key belongs to someone else and is left alone. */
export const settingsHooksSchema = z.object({
  hooks: z.record(z.string(), z.unknown()).optional(),
  disableAllHooks: z.boolean().optional(),
  allowManagedHooksOnly: z.boolean().optional(),
  strictPluginOnlyCustomization: z.union([z.boolean(), z.array(z.string())]).optional(),
  allowedHttpHookUrls: z.array(z.string()).optional(),
  httpHookAllowedEnvVars: z.array(z.string()).optional(),
})

export type CommandHandler = z.infer<typeof commandHandlerSchema>
export type HttpHandler = z.infer<typeof httpHandlerSchema>
export type McpToolHandler = z.infer<typeof mcpToolHandlerSchema>
export type PromptHandler = z.infer<typeof promptHandlerSchema>
export type AgentHandler = z.infer<typeof agentHandlerSchema>
export type CallbackHandler = z.infer<typeof callbackHandlerSchema>
export type HandlerConfig = CommandHandler | HttpHandler | McpToolHandler | PromptHandler | AgentHandler | CallbackHandler
export type SettingsHooks = z.infer<typeof settingsHooksSchema>

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
