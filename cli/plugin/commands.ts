import type { Command } from '../command.js'

const json = { json: { type: 'boolean' } } as const
const scope = { scope: { type: 'string', short: 's' } } as const
const scopeJson = { ...scope, ...json } as const
const one = { min: 1, max: 1 }

/** `modloop plugin …`: Claude Code's `claude plugin` commands, on its `~/.claude/plugins` layout. */
const rows: Command[] = [
  {
    path: ['plugin', 'marketplace', 'add'],
    summary: 'add a marketplace: a folder (used in place), a git URL or owner/repo (cloned into ~/.claude/plugins/marketplaces), declared in the scope\'s settings',
    usage: 'modloop plugin marketplace add <path|url|owner/repo> [--scope user|project|local] [--json]',
    options: scopeJson, positionals: one,
    load: async () => (await import('./marketplace-add.js')).marketplaceAdd,
  },
  {
    path: ['plugin', 'marketplace', 'list'],
    summary: 'list the marketplaces added, with their sources',
    usage: 'modloop plugin marketplace list [--json]',
    options: json, positionals: { min: 0, max: 0 },
    load: async () => (await import('./marketplace.js')).marketplaceList,
  },
  {
    path: ['plugin', 'marketplace', 'remove'],
    summary: 'remove a marketplace and uninstall its plugins (alias: rm)',
    usage: 'modloop plugin marketplace remove|rm <name>',
    options: {}, positionals: one,
    load: async () => (await import('./marketplace.js')).marketplaceRemove,
  },
  {
    path: ['plugin', 'marketplace', 'update'],
    summary: 'pull a cloned marketplace again (all of them without a name)',
    usage: 'modloop plugin marketplace update [name]',
    options: {}, positionals: { min: 0, max: 1 },
    load: async () => (await import('./marketplace.js')).marketplaceUpdate,
  },
  {
    path: ['plugin', 'install'],
    summary: 'install a plugin from a marketplace into ~/.claude/plugins/cache and enable it in the scope\'s settings (alias: i)',
    usage: 'modloop plugin install|i <plugin>[@marketplace] [--scope user|project|local] [--json]',
    options: scopeJson, positionals: one,
    load: async () => (await import('./install.js')).install,
  },
  {
    path: ['plugin', 'uninstall'],
    summary: 'uninstall a plugin from a scope (alias: remove)',
    usage: 'modloop plugin uninstall|remove <plugin> [--scope user|project|local] [--json]',
    options: scopeJson, positionals: one,
    load: async () => (await import('./install.js')).uninstall,
  },
  {
    path: ['plugin', 'update'],
    summary: 'copy a plugin again from its marketplace when the version there differs (marketplace update pulls a cloned one first)',
    usage: 'modloop plugin update <plugin> [--scope user|project|local] [--json]',
    options: scopeJson, positionals: one,
    load: async () => (await import('./update.js')).update,
  },
  {
    path: ['plugin', 'enable'],
    summary: 'enable a plugin in a scope\'s settings (enabledPlugins); without --scope, the nearest scope it is installed in',
    usage: 'modloop plugin enable <plugin> [--scope user|project|local] [--json]',
    options: scopeJson, positionals: one,
    load: async () => (await import('./enable.js')).enable,
  },
  {
    path: ['plugin', 'disable'],
    summary: 'disable a plugin in a scope\'s settings (enabledPlugins)',
    usage: 'modloop plugin disable <plugin> [--scope user|project|local] [--json]',
    options: scopeJson, positionals: one,
    load: async () => (await import('./enable.js')).disable,
  },
  {
    path: ['plugin', 'list'],
    summary: 'list the installed plugins of this project, each enabled or disabled',
    usage: 'modloop plugin list [--json]',
    options: json, positionals: { min: 0, max: 0 },
    load: async () => (await import('./list.js')).list,
  },
  {
    path: ['plugin', 'details'],
    summary: 'an installed plugin\'s components: skills (commands too), agents, hook events, MCP and LSP servers',
    usage: 'modloop plugin details <name>',
    options: {}, positionals: one,
    load: async () => (await import('./details.js')).details,
  },
  {
    path: ['plugin', 'validate'],
    summary: 'check a plugin or marketplace manifest (exit 1 on an error)',
    usage: 'modloop plugin validate <path> [--json]',
    options: json, positionals: one,
    load: async () => (await import('./validate.js')).validate,
  },
]

// Claude Code's other spellings: `plugin i`, `plugin remove`, `plugin marketplace rm`, and `plugins` for `plugin`.
const alias = (path: string[], of: string): Command => ({ ...rows.find((r) => r.path.join(' ') === of)!, path, alias: true })

const spelled = [
  ...rows,
  alias(['plugin', 'i'], 'plugin install'),
  alias(['plugin', 'remove'], 'plugin uninstall'),
  alias(['plugin', 'marketplace', 'rm'], 'plugin marketplace remove'),
]

export const PLUGIN_COMMANDS: readonly Command[] = [...spelled, ...spelled.map((c) => ({ ...c, path: ['plugins', ...c.path.slice(1)], alias: true }))]
