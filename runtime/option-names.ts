import type { ModHost } from '../core/mod/host.js'
import type { QueryOptions } from './options.js'

/**
 * What becomes of each `query()` option: `yes` honoured; `noop` accepted with no effect, because
 * in-process there is nothing for it to act on (no CLI process to spawn, no runtime to pick);
 * `no` accepted but not honoured, named once in a warning when set; `modloop` modloop's own.
 * The table is keyed by every option name, so a new option without an entry does not compile.
 */
export type OptionSupport = 'yes' | 'noop' | 'no' | 'modloop'

export const OPTION_SUPPORT = {
  abortController: 'yes', additionalDirectories: 'yes', agent: 'yes', agents: 'yes', allowedTools: 'yes', canUseTool: 'yes',
  continue: 'yes', cwd: 'yes', disallowedTools: 'yes', toolAliases: 'yes', tools: 'yes', env: 'yes', extraArgs: 'yes',
  fallbackModel: 'yes', enableFileCheckpointing: 'yes', forkSession: 'yes', betas: 'yes', hooks: 'yes', persistSession: 'yes',
  includeHookEvents: 'yes', includePartialMessages: 'yes', thinking: 'yes', thinkingDisplay: 'modloop', effort: 'yes', maxThinkingTokens: 'yes', maxTurns: 'yes',
  maxBudgetUsd: 'yes', mcpServers: 'yes', model: 'yes', outputFormat: 'yes', permissionMode: 'yes', allowDangerouslySkipPermissions: 'yes',
  permissionPromptToolName: 'yes', permissionPrompts: 'yes', plugins: 'yes', resume: 'yes', sessionId: 'yes', resumeSessionAt: 'yes',
  settings: 'yes', settingSources: 'yes', stderr: 'yes', strictMcpConfig: 'yes', systemPrompt: 'yes', forwardSubagentText: 'yes',
  sandbox: 'no',
  executable: 'noop', executableArgs: 'noop', pathToClaudeCodeExecutable: 'noop', spawnClaudeCodeProcess: 'noop', mcpServersDelivery: 'noop',
  pluginDelivery: 'noop', perTaskStopAffordance: 'noop', debug: 'yes', debugFile: 'yes',
  projectConfigRoot: 'no', toolConfig: 'yes', onElicitation: 'yes', onUserDialog: 'no', supportedDialogKinds: 'no', sessionStore: 'no',
  sessionStoreFlush: 'no', loadTimeoutMs: 'no', verbatimPrompts: 'yes', taskBudget: 'yes', planModeInstructions: 'yes', promptSuggestions: 'yes',
  agentProgressSummaries: 'yes', resumeDropsTurn: 'no', managedSettings: 'no', skills: 'yes', title: 'yes',
  appendSystemPrompt: 'modloop', config: 'modloop', configLabel: 'modloop', mods: 'modloop', bare: 'modloop', trustWorkspace: 'modloop',
  strictMods: 'modloop', watchMods: 'modloop', log: 'modloop', surface: 'modloop', isInteractive: 'modloop', disableSlashCommands: 'modloop',
  maxTokens: 'modloop', maxWaitTasksMs: 'modloop', modelProvider: 'modloop', script: 'modloop', host: 'modloop', builtins: 'modloop',
} as const satisfies Record<keyof QueryOptions, OptionSupport> & Record<string, OptionSupport>

/**
 * The warnings a set of options earns, once per query: a key that is no option at all (a typo, or
 * an option of another SDK version), and an option modloop accepts but does not honour.
 */
export function optionWarnings(options: object): string[] {
  const out: string[] = []
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined) continue
    const support = (OPTION_SUPPORT as Record<string, OptionSupport>)[key]
    if (support === undefined) out.push(`query(): unknown option "${key}" (neither an Agent SDK nor a modloop option); it is ignored`)
    else if (key === 'sandbox' && isSet(key, value)) out.push('query(): option "sandbox" is accepted but NOT enforced by modloop: commands run unsandboxed (docs/agent-sdk.md)')
    else if (support === 'no' && isSet(key, value)) out.push(`query(): option "${key}" is accepted but not honoured by modloop (docs/agent-sdk.md); it has no effect`)
  }
  return out
}

/** False, empty and disabled values ask for nothing, so they earn no warning. */
function isSet(key: string, value: unknown): boolean {
  if (value === false || value === null || (Array.isArray(value) && value.length === 0)) return false
  if (key === 'sandbox') return (value as { enabled?: unknown }).enabled === true
  return true
}

// Options that a mod answers under the config key of the same name (`hooks` → shell-hooks, `mcpServers` → mcp).
const READ_BY_MODS = ['hooks', 'mcpServers'] as const

/** An option set while no loaded mod reads it would do nothing: said once, naming the mod that normally does. */
export function unreadOptionWarnings(options: QueryOptions, host: ModHost): string[] {
  const read = new Set(host.list().filter((m) => m.status === 'loaded').flatMap((m) => Object.keys(m.def.configKeys ?? {})))
  return READ_BY_MODS.filter((key) => options[key] !== undefined && Object.keys(options[key] ?? {}).length > 0 && !read.has(key)).map((key) => {
    const mod = host.usual('configKeys', key)
    return `query(): option "${key}" is set, but no loaded mod reads it${mod ? ` (the ${mod} mod does normally)` : ''}, so it does nothing`
  })
}
