import type { QueryOptions } from '../runtime/options.js'
import type { OptionSpecs, Values } from './command.js'
import { usageError } from './usage-error.js'
import { STDERR } from '../runtime/debug-log.js'

/**
 * The flags the Agent SDK may start its executable with, beyond those modloop had already: the
 * parser accepts every one, so an application pointed at modloop starts. What each becomes is in
 * `sdkFlagOptions`; the ones modloop cannot honour are in NOT_HONOURED, named once on stderr.
 */
export const SDK_FLAGS = {
  'input-format': { type: 'string' },
  agent: { type: 'string' },
  betas: { type: 'string', multiple: true },
  tools: { type: 'string', multiple: true },
  'setting-sources': { type: 'string' },
  'permission-prompt-tool': { type: 'string' },
  'permission-prompts': { type: 'string' },
  'allow-dangerously-skip-permissions': { type: 'boolean' },
  'await-initialize': { type: 'boolean' },
  'initialize-fields': { type: 'string' },
  'plugin-dir-no-mcp': { type: 'string', multiple: true },
  'thinking-display': { type: 'string' },
  'task-budget': { type: 'string' },
  // `--debug [filter]`: the value may be left out (HEADLESS_OPTIONAL_VALUE).
  debug: { type: 'string', short: 'd' },
  'debug-file': { type: 'string' },
  'debug-to-stderr': { type: 'boolean' },
  'session-mirror': { type: 'boolean' },
  'project-config-root': { type: 'string' },
  'resume-drops-turn': { type: 'string' },
  'managed-settings': { type: 'string' },
  'managed-settings-in-initialize': { type: 'boolean' },
  channels: { type: 'string', multiple: true },
  'forward-subagent-text': { type: 'boolean' },
  'prompt-suggestions': { type: 'string' },
} as const satisfies OptionSpecs

/** Flags accepted but not honoured, with what the person should know; named once on stderr when given. */
const NOT_HONOURED: Partial<Record<keyof typeof SDK_FLAGS, string>> = {
  'session-mirror': 'transcripts are not mirrored to a session store',
  'project-config-root': 'settings and .claude trees are read from the working directory',
  'resume-drops-turn': 'the truncating resume is not validated',
  'managed-settings': 'managed settings from the parent process are not applied',
  'managed-settings-in-initialize': 'managed settings from the parent process are not applied',
  channels: 'MCP channels are not supported',
  'plugin-dir-no-mcp': "the plugin is loaded, and its MCP servers are started too",
}

const SOURCES = ['user', 'project', 'local'] as const

/**
 * The query options the SDK's flags ask for, and a warning for each given flag modloop does not
 * honour. `--permission-prompt-tool stdio` is the transport's own (its canUseTool asks the SDK).
 */
export function sdkFlagOptions(values: Values): { options: Partial<QueryOptions>; warnings: string[] } {
  const warnings = Object.entries(NOT_HONOURED)
    .filter(([flag]) => values[flag] !== undefined && values[flag] !== false)
    .map(([flag, what]) => `--${flag} is accepted but not honoured: ${what}`)
  const options: Partial<QueryOptions> = {}
  const str = (key: string) => (typeof values[key] === 'string' ? (values[key] as string) : undefined)
  const list = (key: string) => {
    const v = values[key]
    const items = Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : undefined
    return items?.flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean)
  }
  if (str('agent')) options.agent = str('agent')
  const budget = str('task-budget')
  if (budget !== undefined) {
    if (!/^\d+$/.test(budget.trim()) || Number(budget) < 1) throw usageError(`--task-budget takes a whole number of tokens from 1, not "${budget}"`)
    options.taskBudget = { total: Number(budget) }
  }
  const betas = list('betas')
  if (betas?.length) options.betas = betas
  const tools = list('tools')
  if (tools !== undefined && !(tools.length === 1 && tools[0] === 'default')) options.tools = tools
  const sources = list('setting-sources')
  if (sources) {
    const bad = sources.find((s) => !(SOURCES as readonly string[]).includes(s))
    if (bad) throw usageError(`--setting-sources takes ${SOURCES.join(', ')} (comma-separated), not "${bad}"`)
    options.settingSources = sources as QueryOptions['settingSources']
  }
  const promptTool = str('permission-prompt-tool')
  if (promptTool && promptTool !== 'stdio') options.permissionPromptToolName = promptTool
  const prompts = str('permission-prompts')
  if (prompts !== undefined) {
    if (prompts !== 'host' && prompts !== 'none') throw usageError(`--permission-prompts takes host or none, not "${prompts}"`)
    options.permissionPrompts = prompts
  }
  // `--debug` alone is spelled `--debug=` (cli/optional-value.ts): all categories.
  if (typeof values.debug === 'string') options.debug = values.debug === '' ? true : values.debug
  if (str('debug-file')) options.debugFile = str('debug-file')
  if (values['debug-to-stderr'] === true) options.debugFile = STDERR
  if (values['allow-dangerously-skip-permissions'] === true) options.allowDangerouslySkipPermissions = true
  if (values['forward-subagent-text'] === true) options.forwardSubagentText = true
  const suggestions = str('prompt-suggestions')
  if (suggestions !== undefined) options.promptSuggestions = switchValue('--prompt-suggestions', suggestions)
  const display = str('thinking-display')
  if (display !== undefined) {
    if (display !== 'summarized' && display !== 'omitted') throw usageError(`--thinking-display takes summarized or omitted, not "${display}"`)
    options.thinkingDisplay = display
  }
  return { options, warnings }
}

/**
 * The flags that only make sense on a stream-json output (what they add are messages of their
 * own): given elsewhere they are refused, as Claude Code refuses them, rather than silently idle.
 */
export function needsStreamJson(values: Values): void {
  if (values['output-format'] === 'stream-json') return
  if (values['forward-subagent-text'] === true) throw usageError('--forward-subagent-text requires --output-format stream-json')
  const suggestions = values['prompt-suggestions']
  if (typeof suggestions === 'string' && switchValue('--prompt-suggestions', suggestions)) {
    throw usageError('--prompt-suggestions requires --output-format stream-json (prompt_suggestion messages appear only there)')
  }
}

const ON = ['', 'true', '1', 'yes', 'on']
const OFF = ['false', '0', 'no', 'off']

/** A switch whose value may be left out (given alone it is on), as Claude Code reads one. */
function switchValue(flag: string, value: string): boolean {
  const v = value.trim().toLowerCase()
  if (ON.includes(v)) return true
  if (OFF.includes(v)) return false
  throw usageError(`${flag} takes true, false, 1, 0, yes, no, on or off, not "${value}"`)
}
