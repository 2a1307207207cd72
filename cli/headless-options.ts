import type { OptionSpecs } from './command.js'
import { LOAD_OPTIONS } from './load-args.js'
import { SDK_FLAGS } from './sdk-flags.js'

/** The options of headless mode, kept apart so the command table does not import the loop. */
export const HEADLESS_OPTIONS = {
  ...LOAD_OPTIONS,
  print: { type: 'boolean', short: 'p' },
  'output-format': { type: 'string' },
  verbose: { type: 'boolean' },
  'include-partial-messages': { type: 'boolean' },
  'replay-user-messages': { type: 'boolean' },
  'max-turns': { type: 'string' },
  'max-wait-tasks': { type: 'string' },
  'max-budget-usd': { type: 'string' },
  model: { type: 'string' },
  'fallback-model': { type: 'string' },
  effort: { type: 'string' },
  thinking: { type: 'string' },
  'max-thinking-tokens': { type: 'string' },
  'json-schema': { type: 'string' },
  'system-prompt': { type: 'string' },
  'system-prompt-file': { type: 'string' },
  'append-system-prompt': { type: 'string' },
  'append-system-prompt-file': { type: 'string' },
  'permission-mode': { type: 'string' },
  'dangerously-skip-permissions': { type: 'boolean' },
  allowedTools: { type: 'string', multiple: true },
  disallowedTools: { type: 'string', multiple: true },
  'add-dir': { type: 'string', multiple: true },
  'trust-workspace': { type: 'boolean' },
  settings: { type: 'string', multiple: true },
  'include-hook-events': { type: 'boolean' },
  script: { type: 'string' },
  cwd: { type: 'string' },
  worktree: { type: 'string', short: 'w' },
  resume: { type: 'string', short: 'r' },
  continue: { type: 'boolean', short: 'c' },
  'fork-session': { type: 'boolean' },
  'session-id': { type: 'string' },
  'resume-session-at': { type: 'string' },
  'watch-mods': { type: 'boolean' },
  checkpoint: { type: 'boolean' },
  'rewind-files': { type: 'string' },
  'no-session-persistence': { type: 'boolean' },
  'session-store': { type: 'string' },
  'mcp-config': { type: 'string', multiple: true },
  'strict-mcp-config': { type: 'boolean' },
  agents: { type: 'string' },
  'disable-slash-commands': { type: 'boolean' },
  name: { type: 'string', short: 'n' },
  autocompact: { type: 'string' },
  'exclude-dynamic-system-prompt-sections': { type: 'boolean' },
  'system-prompt-snapshot': { type: 'string' },
  // The SendUserMessage tool (mods/brief).
  brief: { type: 'boolean' },
  // Claude Code's minimal, safe and restricted modes (cli/start-mode.ts).
  bare: { type: 'boolean' },
  'safe-mode': { type: 'boolean' },
  restricted: { type: 'boolean' },
  // The Setup hooks (cli/setup-flags.ts).
  init: { type: 'boolean' },
  'init-only': { type: 'boolean' },
  maintenance: { type: 'boolean' },
  // The Agent SDK's flags, so an application written for it starts this CLI unchanged (cli/sdk-flags.ts).
  ...SDK_FLAGS,
} as const satisfies OptionSpecs

/** The options that take several values in a row, as Claude Code's do: `--allowedTools Read Grep`. */
export const HEADLESS_VARIADIC = ['allowedTools', 'disallowedTools', 'add-dir', 'mcp-config', 'betas', 'tools'] as const satisfies readonly (keyof typeof HEADLESS_OPTIONS)[]

/** The options whose value may be left out: `--resume` alone opens the terminal's session picker, `--worktree` alone asks for a worktree of a made-up name, `--debug` alone logs every category, `--prompt-suggestions` alone is `true`. */
export const HEADLESS_OPTIONAL_VALUE: Readonly<Record<string, keyof typeof HEADLESS_OPTIONS>> = { '--resume': 'resume', '-r': 'resume', '--worktree': 'worktree', '-w': 'worktree', '--debug': 'debug', '-d': 'debug', '--prompt-suggestions': 'prompt-suggestions' }

/** Claude Code's other spellings of options. */
export const HEADLESS_ALIASES: Readonly<Record<string, keyof typeof HEADLESS_OPTIONS>> = { 'allowed-tools': 'allowedTools', 'disallowed-tools': 'disallowedTools' }

/** What a value-taking option's value looks like in the usage line; any other shows VALUE. */
const VALUE_HINTS: Partial<Record<keyof typeof HEADLESS_OPTIONS, string>> = {
  'output-format': 'text|json|stream-json', 'max-turns': 'N', 'max-wait-tasks': 'SECONDS', 'max-budget-usd': 'X', model: 'M', 'fallback-model': 'M', effort: 'LEVEL',
  thinking: 'adaptive|enabled|disabled', 'max-thinking-tokens': 'N', 'json-schema': 'FILE|JSON', 'system-prompt': 'TEXT', 'system-prompt-file': 'FILE', 'append-system-prompt': 'TEXT', 'append-system-prompt-file': 'FILE', 'system-prompt-snapshot': 'on|off',
  'permission-mode': 'MODE', allowedTools: 'RULES', disallowedTools: 'RULES', 'add-dir': 'DIR', settings: 'FILE|JSON', script: 'FILE', cwd: 'DIR', worktree: '[NAME]',
  resume: '[ID|TITLE]', 'rewind-files': 'UUID', 'session-id': 'UUID', 'resume-session-at': 'UUID', 'mcp-config': 'FILE|JSON', config: 'PATH', mod: 'SPEC', 'plugin-dir': 'DIR', 'session-store': 'URL', agents: 'FILE|JSON', name: 'NAME', autocompact: 'auto|TOKENS',
  'input-format': 'text|stream-json', agent: 'NAME', betas: 'LIST', tools: 'default|LIST', 'setting-sources': 'user,project,local',
  'permission-prompt-tool': 'stdio|TOOL', 'permission-prompts': 'host|none', 'plugin-dir-no-mcp': 'DIR', debug: '[FILTER]', 'debug-file': 'PATH', 'prompt-suggestions': '[true|false]',
}

// Made from the option table, so an option the parser accepts cannot be missing from --help.
export const HEADLESS_USAGE = `modloop -p [PROMPT] ${Object.entries(HEADLESS_OPTIONS).filter(([name]) => name !== 'print').map(([name, spec]) => {
  const hint = spec.type === 'string' ? ` ${VALUE_HINTS[name as keyof typeof HEADLESS_OPTIONS] ?? 'VALUE'}` : ''
  return `[--${name}${hint}]${'multiple' in spec && spec.multiple ? '...' : ''}`
}).join(' ')}`
