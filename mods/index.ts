/**
 * The built-in mods, by the name a config uses for them. Each entry imports its mod lazily, so a
 * distribution pays only for the mods it names.
 */
export const builtinMods: Record<string, () => Promise<unknown /* module namespace */>> = {
  'settings-env': () => import('./settings-env/index.js'),
  read: () => import('./read/index.js'),
  write: () => import('./write/index.js'),
  edit: () => import('./edit/index.js'),
  glob: () => import('./glob/index.js'),
  grep: () => import('./grep/index.js'),
  tasks: () => import('./tasks/index.js'),
  bash: () => import('./bash/index.js'),
  monitor: () => import('./monitor/index.js'),
  todo: () => import('./todo/index.js'),
  'prompt-suggestions': () => import('./prompt-suggestions/index.js'),
  'ask-user': () => import('./ask-user/index.js'),
  brief: () => import('./brief/index.js'),
  'task-list': () => import('./task-list/index.js'),
  'web-fetch': () => import('./web-fetch/index.js'),
  'web-search': () => import('./web-search/index.js'),
  agent: () => import('./agent/index.js'),
  'send-message': () => import('./send-message/index.js'),
  worktree: () => import('./worktree/index.js'),
  cron: () => import('./cron/index.js'),
  permissions: () => import('./permissions/index.js'),
  memory: () => import('./memory/index.js'),
  context: () => import('./context/index.js'),
  commands: () => import('./commands/index.js'),
  'output-styles': () => import('./output-styles/index.js'),
  mentions: () => import('./mentions/index.js'),
  transcripts: () => import('./transcripts/index.js'),
  mcp: () => import('./mcp/index.js'),
  'tool-search': () => import('./tool-search/index.js'),
  checkpoints: () => import('./checkpoints/index.js'),
  'auto-mode': () => import('./auto-mode/index.js'),
  'shell-hooks': () => import('./shell-hooks/index.js'),
  'structured-output': () => import('./structured-output/index.js'),
  'model-switch': () => import('./model-switch/index.js'),
  compaction: () => import('./compaction/index.js'),
  'prompt-cache': () => import('./prompt-cache/index.js'),
  'prompt-snapshot': () => import('./prompt-snapshot/index.js'),
  'task-budget': () => import('./task-budget/index.js'),
  'terminal-ui': () => import('./terminal-ui/index.js'),
}

/** The mods loaded when no config is found (and by `extends: 'modloop'`), in load order. */
export const defaultDistribution: string[] = ['settings-env', 'read', 'write', 'edit', 'glob', 'grep', 'tasks', 'bash', 'monitor', 'todo', 'task-list', 'ask-user', 'brief', 'web-fetch', 'web-search', 'agent', 'send-message', 'worktree', 'cron', 'permissions', 'memory', 'context', 'commands', 'output-styles', 'mentions', 'transcripts', 'mcp', 'tool-search', 'shell-hooks', 'structured-output', 'model-switch', 'compaction', 'prompt-cache', 'prompt-snapshot', 'task-budget', 'checkpoints', 'auto-mode', 'prompt-suggestions', 'terminal-ui']

/**
 * Claude Code's minimal mode (`--bare`, CLAUDE_CODE_SIMPLE): the Bash, Edit and Read tools, a
 * system prompt of the intro and the working directory and date, and what the flags and settings a
 * minimal run still takes need (settings env and permissions, --mcp-config, --json-schema,
 * --task-budget, sessions). No settings hooks, memory files, commands, skills or git snapshot: those mods are not
 * loaded at all.
 */
export const minimalDistribution: (string | [string, Record<string, unknown>])[] = [
  'settings-env', ['bash', { shellTools: false }], ['edit', { notebook: false }], 'read', ['permissions', { planTools: false }], ['context', { git: false, envStyle: 'brief' }], 'transcripts', ['mcp', { launchServersOnly: true }], 'structured-output', 'compaction', 'prompt-cache', ['prompt-snapshot', { default: 'off' }], 'task-budget',
]

/**
 * Claude Code's safe mode (`--safe-mode`, CLAUDE_CODE_SAFE_MODE): the default distribution without
 * what reads the person's customizations: settings hooks, CLAUDE.md and memory, MCP servers, output
 * styles, custom commands, skills and agent files. Permissions, built-in tools and commands work as ever.
 */
export const safeDistribution: (string | [string, Record<string, unknown>])[] = defaultDistribution
  .filter((name) => !['shell-hooks', 'memory', 'mcp', 'output-styles'].includes(name))
  .map((name) => (name === 'commands' ? ['commands', { commands: false, skills: false }] : name === 'agent' ? ['agent', { fileAgents: false }] : name))

/**
 * Claude Code's restricted mode (`--restricted`, CLAUDE_CODE_RESTRICTED): the default distribution
 * without the tools that run commands or code or reach the web unasked (Bash, Monitor, WebFetch,
 * CronCreate), unless the launch names its tools (`--tools`): then that list alone picks them.
 * The file tools are confined to the working directories (the permissions mod's `confineFileTools`),
 * and bypassPermissions cannot be entered, whichever settings or control asks for it. No auto
 * memory: its folder lies outside the working directories. In auto mode, writes to protected paths
 * are left to the person or the permission handler, never the classifier.
 * The settings files are left out by the launch itself (`settingSources: []`), which also keeps
 * their memory files, commands, skills, agent files and MCP servers out.
 */
export function restrictedDistribution(toolsNamed: boolean): (string | [string, Record<string, unknown>])[] {
  const confined = (name: string): string | [string, Record<string, unknown>] =>
    name === 'permissions' ? ['permissions', { confineFileTools: true, disableBypassPermissionsMode: 'disable' }]
      : name === 'memory' ? ['memory', { autoMemory: false }]
      : name === 'auto-mode' ? ['auto-mode', { classifyProtectedPaths: false }]
      : name
  if (toolsNamed) return defaultDistribution.map(confined)
  return defaultDistribution
    .filter((name) => !['bash', 'monitor', 'web-fetch'].includes(name))
    .map((name) => (name === 'cron' ? ['cron', { create: false }] : confined(name)))
}
