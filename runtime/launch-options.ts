import type { Provider } from '../core/mod/build-api.js'
import type { QueryOptions } from './options.js'
import type { Session } from '../core/loop/session.js'
import { appliedFlagSettings } from './flag-settings.js'

/** `$.settings.read`: the launch options as mods read them. */
export function launchOptionsProvider(session: Session): Record<string, Provider> {
  return {
    // The launch options (`source: 'flag'`) under the names query() gives them; each mod reads the
    // ones it owns (the permission options become rules in the permissions mod). Settings files are
    // read by the mods that own them.
    'settings.read': (_mod: string, args?: { source?: string }) => {
      const o = session.options
      if (args?.source !== undefined && args.source !== 'flag') return {}
      return {
        ...(allowed(o).length ? { allowedTools: allowed(o) } : {}),
        ...(o.disallowedTools?.length ? { disallowedTools: [...o.disallowedTools] } : {}),
        ...(Array.isArray(o.tools) ? { tools: [...o.tools] } : {}),
        ...(o.model ? { model: o.model } : {}),
        ...(o.permissionMode ? { permissionMode: o.permissionMode } : {}),
        ...(o.additionalDirectories?.length ? { additionalDirectories: [...o.additionalDirectories] } : {}),
        ...(o.trustWorkspace ? { trustWorkspace: true } : {}),
        // The query's own --settings layers, then what applyFlagSettings merged since (flag-settings.ts).
        ...(settingsOf(session).length ? { settings: settingsOf(session) } : {}),
        ...(o.includeHookEvents ? { includeHookEvents: true } : {}),
        ...(o.mcpServers ? { mcpServers: o.mcpServers } : {}),
        ...(o.outputFormat ? { outputFormat: o.outputFormat } : {}),
        ...(o.effort ? { effortLevel: o.effort } : {}),
        ...(o.strictMcpConfig ? { strictMcpConfig: true } : {}),
        ...(o.persistSession === false ? { persistSession: false } : {}),
        ...(o.enableFileCheckpointing ? { enableFileCheckpointing: true } : {}),
        // The Agent SDK's options that mods answer: callback hooks (shell-hooks), which settings
        // files to read (shell-hooks, permissions, memory), subagents and the main agent (agent).
        ...(o.hooks ? { hooks: o.hooks } : {}),
        ...(o.settingSources ? { settingSources: [...o.settingSources] } : {}),
        ...(o.agents ? { agents: o.agents } : {}),
        ...(o.agent ? { agent: o.agent } : {}),
        // Read by the transcripts mod: a new session's title.
        ...(o.title ? { title: o.title } : {}),
        // Read by the context and memory mods: their per-machine sections go in the first user message.
        ...(excludesDynamicSections(o) ? { excludeDynamicSections: true } : {}),
        // Read by the prompt-snapshot mod: whether the system prompt is recorded and sent as recorded.
        ...(snapshotFlag(o) ? { systemPromptSnapshot: snapshotFlag(o) } : {}),
        // Read by the agent mod: a foreground subagent's text and thinking reach the stream too.
        ...(o.forwardSubagentText ? { forwardSubagentText: true } : {}),
        // Read by the agent mod: running subagents are summarised now and then.
        ...(o.agentProgressSummaries ? { agentProgressSummaries: true } : {}),
        // Read by the prompt-suggestions mod: a guess at the next prompt after each turn.
        ...(o.promptSuggestions ? { promptSuggestions: true } : {}),
        // Read by the permissions mod: the application's own workflow in the plan-mode reminder.
        ...(o.planModeInstructions !== undefined ? { planModeInstructions: o.planModeInstructions } : {}),
        // Read by the commands mod: the skills the model is offered (the Agent SDK's `skills`).
        ...(o.skills !== undefined ? { skills: Array.isArray(o.skills) ? [...o.skills] : o.skills } : {}),
        // Read by the mcp mod: who answers a server's request for the user's input.
        ...(o.onElicitation ? { onElicitation: o.onElicitation } : {}),
        // Read by the task-budget mod: the tokens the whole task may take.
        ...(o.taskBudget ? { taskBudget: o.taskBudget } : {}),
        // Read by the ask-user mod: how the host shows an option's preview.
        ...(o.toolConfig ? { toolConfig: o.toolConfig } : {}),
        // Read by the commands mod: no skills, no Skill tool.
        ...(o.disableSlashCommands ? { disableSlashCommands: true } : {}),
        // Read by the brief mod: the SendUserMessage tool (`--brief`, an SDK pass-through flag too).
        ...(o.extraArgs?.brief !== undefined ? { brief: true } : {}),
        // Read by the shell-hooks mod: the Setup hooks to run as the session starts.
        ...(setupFlag(o) ? { setup: setupFlag(o) } : {}),
      }
    },
  }
}

function settingsOf(session: Session): string[] {
  return [...settingsList(session.options.settings), ...appliedFlagSettings(session)]
}

/**
 * `allowedTools`, with the rules the Agent SDK adds for its `skills` option so a skill it enables
 * runs without an ask: `Skill` for `'all'`, `Skill(name)` for each listed name, each once.
 */
function allowed(o: QueryOptions): string[] {
  const rules = o.skills === 'all' ? ['Skill'] : Array.isArray(o.skills) ? o.skills.filter((n) => typeof n === 'string' && n.trim() !== '').map((n) => `Skill(${n.trim().replace(/^\//, '')})`) : []
  const given = o.allowedTools ?? []
  return [...given, ...rules.filter((r) => !given.includes(r))]
}

/** The preset's `excludeDynamicSections`, or the CLI's flag of that name (an SDK pass-through flag too). */
function excludesDynamicSections(o: QueryOptions): boolean {
  const p = o.systemPrompt
  const preset = typeof p === 'object' && !Array.isArray(p) && p.type === 'preset' && p.excludeDynamicSections === true
  return preset || o.extraArgs?.['exclude-dynamic-system-prompt-sections'] !== undefined
}

/** The prompt's `snapshot` (a custom or preset prompt object), or the CLI's `--system-prompt-snapshot on|off` (an SDK pass-through flag too). */
function snapshotFlag(o: QueryOptions): 'on' | 'off' | undefined {
  const p = o.systemPrompt
  const given = typeof p === 'object' && !Array.isArray(p) ? p.snapshot : undefined
  if (given !== undefined) return given ? 'on' : 'off'
  const arg = o.extraArgs?.['system-prompt-snapshot']
  return arg === 'on' || arg === 'off' ? arg : undefined
}

/**
 * `--init`, `--init-only` or `--maintenance` (SDK pass-through flags too): the Setup trigger, and
 * whether Setup is all the launch runs. The CLI takes one at most; of several in `extraArgs`, maintenance is taken first.
 */
function setupFlag(o: QueryOptions): { trigger: 'init' | 'maintenance'; only: boolean } | undefined {
  const a = o.extraArgs
  if (a?.maintenance !== undefined) return { trigger: 'maintenance', only: false }
  if (a?.['init-only'] !== undefined) return { trigger: 'init', only: true }
  return a?.init !== undefined ? { trigger: 'init', only: false } : undefined
}

/** `settings` as a list of `--settings` values: the Agent SDK's one path or settings object becomes one entry. */
export function settingsList(settings: QueryOptions['settings']): string[] {
  if (settings === undefined) return []
  if (typeof settings === 'string') return [settings]
  return Array.isArray(settings) ? [...settings] : [JSON.stringify(settings)]
}
