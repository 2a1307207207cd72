import type { QueryOptions } from '../../runtime/options.js'
import type { Query } from '../../runtime/query.js'
import type { SdkHooks } from '../../runtime/sdk-options.js'
import { settingsList } from '../../runtime/launch-options.js'
import type { McpProxies } from './mcp-proxy.js'
import type { Wire } from './wire.js'

/** The `initialize` control request, as far as modloop reads it (the SDK's SDKControlInitializeRequest). */
export interface InitializeRequest {
  subtype: 'initialize'
  hooks?: Record<string, { matcher?: string; hookCallbackIds?: string[]; timeout?: number; onFailure?: 'continue' | 'block' }[]>
  sdkMcpServers?: string[]
  jsonSchema?: Record<string, unknown>
  systemPrompt?: string[]
  appendSystemPrompt?: string
  systemPromptSnapshot?: boolean
  agents?: QueryOptions['agents']
  toolAliases?: Record<string, string>
  plugins?: { type: 'local'; path: string }[]
  mcpServers?: Record<string, unknown>
  settings?: Record<string, unknown>
  disallowedTools?: string[]
  additionalDirectories?: string[]
  forwardSubagentText?: boolean
  promptSuggestions?: boolean
  agentProgressSummaries?: boolean
  [field: string]: unknown
}

// Fields of initialize modloop reads; any other one given (and not false or empty) is named once.
const READ = new Set([
  'subtype', 'hooks', 'sdkMcpServers', 'sdkMcpServerConfigs', 'sdkMcpServerManifests', 'jsonSchema', 'systemPrompt', 'appendSystemPrompt', 'agents',
  'toolAliases', 'plugins', 'mcpServers', 'settings', 'disallowedTools', 'additionalDirectories', 'forwardSubagentText', 'perTaskStopAffordance',
  'systemPromptSnapshot', 'title', 'promptSuggestions', 'agentProgressSummaries', 'skills', 'planModeInstructions',
])

/**
 * What the initialize request adds to the session's options: hooks whose callbacks ask the SDK
 * (`hook_callback`), the SDK's MCP servers as proxies, the prompt, schema, agents, plugins, servers,
 * settings and lists it carries. Fields modloop does not honour are named in the warnings.
 */
export function initializeOptions(req: InitializeRequest, wire: Wire, proxies: McpProxies): { options: Partial<QueryOptions>; warnings: string[] } {
  const options: Partial<QueryOptions> = {}
  if (req.hooks && Object.keys(req.hooks).length > 0) options.hooks = callbackHooks(req.hooks, wire)
  const servers: Record<string, unknown> = { ...(req.mcpServers ?? {}) }
  for (const name of req.sdkMcpServers ?? []) servers[name] = proxies.server(name)
  if (Object.keys(servers).length > 0) options.mcpServers = servers as QueryOptions['mcpServers']
  if (req.jsonSchema) options.outputFormat = { type: 'json_schema', schema: req.jsonSchema }
  // The SDK sends [""] when its application gave no system prompt (modloop's minimal one stands),
  // and none for the claude_code preset, which is modloop's preset here (its `append` comes apart).
  if (req.systemPrompt === undefined) options.systemPrompt = { type: 'preset', preset: 'modloop' }
  else if (Array.isArray(req.systemPrompt) && req.systemPrompt.some((p) => typeof p === 'string' && p.trim() !== '')) options.systemPrompt = req.systemPrompt
  if (req.appendSystemPrompt) options.appendSystemPrompt = req.appendSystemPrompt
  // The prompt's `snapshot`, which the SDK sends here rather than as a flag.
  if (typeof req.systemPromptSnapshot === 'boolean') options.extraArgs = { 'system-prompt-snapshot': req.systemPromptSnapshot ? 'on' : 'off' }
  if (req.agents) options.agents = req.agents
  if (typeof req.title === 'string' && req.title.trim()) options.title = req.title
  if (req.toolAliases) options.toolAliases = req.toolAliases
  if (req.plugins?.length) options.plugins = req.plugins.map((p) => ({ type: 'local', path: p.path }))
  if (req.settings) options.settings = req.settings
  if (req.disallowedTools?.length) options.disallowedTools = req.disallowedTools
  if (req.additionalDirectories?.length) options.additionalDirectories = req.additionalDirectories
  if (req.forwardSubagentText === true) options.forwardSubagentText = true
  if (req.promptSuggestions === true) options.promptSuggestions = true
  if (req.agentProgressSummaries === true) options.agentProgressSummaries = true
  if (typeof req.planModeInstructions === 'string' && req.planModeInstructions.trim()) options.planModeInstructions = req.planModeInstructions
  // The SDK's `skills` option (it adds the Skill rules to --allowedTools itself).
  if (req.skills === 'all' || Array.isArray(req.skills)) options.skills = req.skills as QueryOptions['skills']
  const ignored = Object.entries(req).filter(([k, v]) => !READ.has(k) && v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0)).map(([k]) => k)
  const warnings = ignored.length > 0 ? [`initialize: ${ignored.join(', ')} ${ignored.length === 1 ? 'is' : 'are'} accepted but not honoured by modloop (docs/agent-sdk.md)`] : []
  return { options, warnings }
}

/**
 * The SDK folds its `sandbox` option into the settings it passes (`--settings`, or initialize):
 * modloop does not sandbox commands, which a person asking for it must hear.
 */
export function sandboxWarnings(settings: QueryOptions['settings']): string[] {
  const asked = settingsList(settings).some((s) => {
    try {
      return (JSON.parse(s) as { sandbox?: { enabled?: unknown } })?.sandbox?.enabled === true
    } catch {
      return false
    }
  })
  return asked ? ['sandbox (in the settings passed) is accepted but NOT enforced by modloop: commands run unsandboxed (docs/agent-sdk.md)'] : []
}

/** The command-line options joined with what initialize adds: lists add up, the rest replaces. */
export function joinOptions(base: QueryOptions, added: Partial<QueryOptions>): QueryOptions {
  return {
    ...base, ...added,
    ...(added.mcpServers || base.mcpServers ? { mcpServers: { ...base.mcpServers, ...added.mcpServers } } : {}),
    ...(added.plugins || base.plugins ? { plugins: [...(base.plugins ?? []), ...(added.plugins ?? [])] } : {}),
    ...(added.settings !== undefined ? { settings: [...settingsList(base.settings), ...settingsList(added.settings)] } : {}),
    ...(added.disallowedTools ? { disallowedTools: [...(base.disallowedTools ?? []), ...added.disallowedTools] } : {}),
    ...(added.additionalDirectories ? { additionalDirectories: [...(base.additionalDirectories ?? []), ...added.additionalDirectories] } : {}),
    ...(added.extraArgs ? { extraArgs: { ...base.extraArgs, ...added.extraArgs } } : {}),
  }
}

/** Each hook callback id as a callback that asks the SDK (`hook_callback`) and answers with its output. */
function callbackHooks(hooks: NonNullable<InitializeRequest['hooks']>, wire: Wire): SdkHooks {
  const out: SdkHooks = {}
  for (const [event, matchers] of Object.entries(hooks)) {
    out[event] = (matchers ?? []).map((m) => ({
      ...(m.matcher !== undefined ? { matcher: m.matcher } : {}),
      ...(m.timeout !== undefined ? { timeout: m.timeout } : {}),
      ...(m.onFailure ? { onFailure: m.onFailure } : {}),
      hooks: (m.hookCallbackIds ?? []).map((id) => async (input, toolUseID, { signal }) =>
        wire.request({ subtype: 'hook_callback', callback_id: id, input, ...(toolUseID ? { tool_use_id: toolUseID } : {}) }, signal)),
    }))
  }
  return out
}

/**
 * The answer to initialize: what the session offers (commands, agents, models, account) and what
 * became of what the request carried. `first` is false for a repeated initialize, whose hooks are
 * not registered again.
 */
export async function initializeResponse(q: Query, req: InitializeRequest, first: boolean): Promise<Record<string, unknown>> {
  const init = await q.initializationResult()
  const carried = (key: keyof InitializeRequest) => req[key] !== undefined && !(Array.isArray(req[key]) && (req[key] as unknown[]).length === 0)
  return {
    ...init, pid: process.pid,
    hook_on_failure_supported: true,
    ...(carried('hooks') ? { hooks_applied: first } : {}),
    ...(carried('plugins') ? { plugins_applied: first } : {}),
    ...(carried('mcpServers') ? { mcp_servers_applied: first } : {}),
    ...(carried('settings') ? { settings_applied: first } : {}),
    ...(carried('disallowedTools') ? { disallowed_tools_applied: first } : {}),
    ...(carried('additionalDirectories') ? { additional_directories_applied: first } : {}),
    // Managed settings are not applied, and the SDK ends a session that asked for them: said, not hidden.
    ...(carried('managedSettings') ? { managed_settings_applied: false } : {}),
  }
}
