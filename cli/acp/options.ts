import type { OptionSpecs } from '../command.js'
import { HEADLESS_OPTIONS } from '../headless-options.js'

/**
 * `-p`'s options that make sense for a session an editor drives: the distribution, the model and
 * its reasoning, permissions, MCP, limits. Picked by name from -p's table, so a flag added there
 * (e.g. `--plugin-dir`) is taken here once it is named below; a name -p lacks is skipped.
 */
const NAMES = [
  'config', 'mod', 'strict-mods', 'plugin-dir', 'model', 'fallback-model', 'effort', 'thinking', 'max-thinking-tokens',
  'system-prompt', 'system-prompt-file', 'append-system-prompt', 'append-system-prompt-file', 'permission-mode', 'dangerously-skip-permissions', 'allowedTools', 'disallowedTools',
  'add-dir', 'trust-workspace', 'settings', 'max-turns', 'max-budget-usd', 'checkpoint', 'no-session-persistence', 'mcp-config',
  'strict-mcp-config', 'watch-mods',
]

const table = HEADLESS_OPTIONS as OptionSpecs
export const ACP_OPTIONS: OptionSpecs = Object.fromEntries(NAMES.filter((n) => n in table).map((n) => [n, table[n]!]))

export const ACP_USAGE = `modloop acp ${Object.entries(ACP_OPTIONS).map(([name, spec]) => `[--${name}${spec.type === 'string' ? ' VALUE' : ''}]${spec.multiple ? '...' : ''}`).join(' ')}`
