import type { Command } from './command.js'
import { LOAD_OPTIONS, LOAD_USAGE } from './load-args.js'
import { HEADLESS_ALIASES, HEADLESS_OPTIONAL_VALUE, HEADLESS_OPTIONS, HEADLESS_USAGE, HEADLESS_VARIADIC } from './headless-options.js'
import { ACP_OPTIONS, ACP_USAGE } from './acp/options.js'
import { PLUGIN_COMMANDS } from './plugin/commands.js'

const json = { json: { type: 'boolean' } } as const
const store = { 'session-store': { type: 'string' } } as const
// The sessions commands read the config for its session store, and, in a folder not trusted, run
// none of its code to do so (cli/load-args.ts withReviewGate).
const sessionsStore = { ...store, 'trust-workspace': { type: 'boolean' } } as const

const mcpAddOptions = {
  scope: { type: 'string', short: 's' }, transport: { type: 'string', short: 't' },
  env: { type: 'string', short: 'e', multiple: true }, header: { type: 'string', short: 'H', multiple: true },
} as const

/** Every command, by the words that select it. Later commands (headless `-p`, …) add rows here. */
export const COMMANDS: readonly Command[] = [
  {
    path: [],
    summary: 'the interactive session in the terminal; or, with -p, one prompt headless, printing the answer, the result as JSON, or every message as JSON lines',
    usage: HEADLESS_USAGE,
    options: HEADLESS_OPTIONS,
    variadic: HEADLESS_VARIADIC,
    aliases: HEADLESS_ALIASES,
    optionalValue: HEADLESS_OPTIONAL_VALUE,
    positionals: { min: 0, max: Infinity },
    load: async () => (await import('./interactive.js')).defaultCommand,
  },
  {
    path: ['acp'],
    summary: 'serve the Agent Client Protocol on stdin/stdout, so an editor (Zed, …) runs this distribution as its agent',
    usage: ACP_USAGE,
    options: ACP_OPTIONS,
    positionals: { min: 0, max: 0 },
    load: async () => (await import('./acp/serve.js')).acp,
  },
  {
    path: ['demo'],
    summary: 'the offline demo: fix a failing test in a bundled project, with a scripted model',
    usage: 'modloop demo [--keep]',
    options: { keep: { type: 'boolean' } },
    positionals: { min: 0, max: 0 },
    load: async () => (await import('./demo.js')).demo,
  },
  {
    path: ['mods', 'list'],
    summary: 'list the mods of the distribution, their status and option names, fitted to the terminal (--json for the full record), and load errors',
    usage: `modloop mods list [--json] ${LOAD_USAGE}`,
    options: { ...LOAD_OPTIONS, ...json },
    positionals: { min: 0, max: 0 },
    load: async () => (await import('./mods-list.js')).modsList,
  },
  {
    path: ['mods', 'show'],
    summary: 'one mod in full: its source, status, version and the options it was given',
    usage: `modloop mods show <name> [--json] ${LOAD_USAGE}`,
    options: { ...LOAD_OPTIONS, ...json },
    positionals: { min: 1, max: 1 },
    load: async () => (await import('./mods-show.js')).modsShow,
  },
  {
    path: ['mods', 'stack'],
    summary: 'print the resolved handler order for one event',
    usage: `modloop mods stack <event> [--json] ${LOAD_USAGE}`,
    options: { ...LOAD_OPTIONS, ...json },
    positionals: { min: 1, max: 1 },
    load: async () => (await import('./mods-stack.js')).modsStack,
  },
  {
    path: ['permissions', 'check'],
    summary: 'print the permission decision a tool call would get, and the rule that decided it',
    usage: `modloop permissions check <Tool> ['<json input>'] [--mode M] [--cwd DIR] [--allowedTools RULES] [--disallowedTools RULES] [--add-dir DIR]... [--settings FILE|JSON]... [--json] ${LOAD_USAGE}`,
    options: {
      ...LOAD_OPTIONS, ...json, mode: { type: 'string' }, cwd: { type: 'string' },
      allowedTools: { type: 'string', multiple: true }, disallowedTools: { type: 'string', multiple: true }, 'add-dir': { type: 'string', multiple: true },
      settings: { type: 'string', multiple: true },
    },
    positionals: { min: 1, max: 2 },
    load: async () => (await import('./permissions-check.js')).permissionsCheck,
  },
  {
    path: ['hooks', 'list'],
    summary: 'list the resolved settings hooks with the file each came from (--approve records project hooks as reviewed)',
    usage: `modloop hooks list [--json] [--settings FILE|JSON]... [--approve] ${LOAD_USAGE}`,
    options: { ...LOAD_OPTIONS, ...json, settings: { type: 'string', multiple: true }, approve: { type: 'boolean' } },
    positionals: { min: 0, max: 0 },
    load: async () => (await import('./hooks-list.js')).hooksList,
  },
  {
    path: ['hooks', 'test'],
    summary: 'run the hooks matching one event on a synthetic input and print each result and the merged decision',
    usage: `modloop hooks test <Event> [--tool NAME] [--input JSON|@file] [--json] [--settings FILE|JSON]... ${LOAD_USAGE}`,
    options: { ...LOAD_OPTIONS, ...json, tool: { type: 'string' }, input: { type: 'string' }, settings: { type: 'string', multiple: true } },
    positionals: { min: 1, max: 1 },
    load: async () => (await import('./hooks-test.js')).hooksTest,
  },
  {
    path: ['mcp', 'add'],
    summary: "add an MCP server to the user's .claude.json (local scope: this project; user scope: every project) or the project's .mcp.json, as `claude mcp add` does",
    usage: "modloop mcp add [-s local|project|user] [-t stdio|sse|http] [-e KEY=value]... [-H 'Name: value']... <name> <commandOrUrl> [-- args...]",
    options: mcpAddOptions,
    variadic: ['env', 'header'],
    aliases: { e: 'env', H: 'header' },
    positionals: { min: 2, max: Infinity },
    load: async () => (await import('./mcp/add.js')).mcpAdd,
  },
  {
    path: ['mcp', 'add-json'],
    summary: "add an MCP server from its JSON config (- reads it from stdin), checked as sessions read it",
    usage: 'modloop mcp add-json [-s local|project|user] <name> <json|->',
    options: { scope: mcpAddOptions.scope },
    positionals: { min: 2, max: 2 },
    load: async () => (await import('./mcp/add-json.js')).mcpAddJson,
  },
  {
    path: ['mcp', 'list'],
    summary: 'list the MCP servers of the three scopes, each checked at once for whether it connects (project servers not yet approved are not started)',
    usage: 'modloop mcp list',
    options: {},
    positionals: { min: 0, max: 0 },
    load: async () => (await import('./mcp/list.js')).mcpList,
  },
  {
    path: ['mcp', 'get'],
    summary: 'one MCP server: its scope, whether it connects, and its config',
    usage: 'modloop mcp get <name>',
    options: {},
    positionals: { min: 1, max: 1 },
    load: async () => (await import('./mcp/get.js')).mcpGet,
  },
  {
    path: ['mcp', 'remove'],
    summary: 'remove an MCP server; without -s, from the one scope that has it',
    usage: 'modloop mcp remove <name> [-s local|project|user]',
    options: { scope: mcpAddOptions.scope },
    positionals: { min: 1, max: 1 },
    load: async () => (await import('./mcp/remove.js')).mcpRemove,
  },
  {
    path: ['mcp', 'reset-project-choices'],
    summary: 'forget which .mcp.json servers were approved or turned off for this project, so each is asked about again',
    usage: 'modloop mcp reset-project-choices',
    options: {},
    positionals: { min: 0, max: 0 },
    load: async () => (await import('./mcp/reset.js')).mcpResetProjectChoices,
  },
  ...PLUGIN_COMMANDS,
  {
    path: ['trust'],
    summary: 'trust a workspace (default: the current directory) so its project settings may widen access',
    usage: 'modloop trust [DIR] [--revoke] [--list]',
    options: { revoke: { type: 'boolean' }, list: { type: 'boolean' } },
    positionals: { min: 0, max: 1 },
    load: async () => (await import('./trust.js')).trust,
  },
  {
    path: ['auto-mode', 'config'],
    summary: "print the auto mode classifier's rules in use as JSON: your settings' autoMode where set, defaults otherwise",
    usage: 'modloop auto-mode config',
    options: {},
    positionals: { min: 0, max: 0 },
    load: async () => (await import('./auto-mode.js')).autoModeConfig,
  },
  {
    path: ['auto-mode', 'defaults'],
    summary: "print the auto mode classifier's default allow, soft_deny, hard_deny and environment rules as JSON",
    usage: 'modloop auto-mode defaults [--label PREFIX]',
    options: { label: { type: 'string' } },
    positionals: { min: 0, max: 0 },
    load: async () => (await import('./auto-mode.js')).autoModeDefaults,
  },
  {
    path: ['auto-mode', 'reset'],
    summary: 'reset auto mode to its defaults by removing the autoMode section from your user settings file',
    usage: 'modloop auto-mode reset [-y|--yes]',
    options: { yes: { type: 'boolean', short: 'y' } },
    positionals: { min: 0, max: 0 },
    load: async () => (await import('./auto-mode.js')).autoModeReset,
  },
  {
    path: ['doctor'],
    summary: 'check what would break a session started here: settings files that are not JSON or hold values that are skipped, a config or mod that fails to load, hooks whose program is missing',
    usage: `modloop doctor ${LOAD_USAGE}`,
    options: { ...LOAD_OPTIONS },
    positionals: { min: 0, max: 0 },
    load: async () => (await import('./doctor.js')).doctor,
  },
  {
    path: ['purge'],
    summary: "delete a project's modloop data (sessions, their task lists and checkpoints, prompt history, its trust store entries) from this computer; --all for every project",
    usage: 'modloop purge [path] [--all] [--dry-run] [-i|--interactive] [-y|--yes]',
    options: { all: { type: 'boolean' }, 'dry-run': { type: 'boolean' }, interactive: { type: 'boolean', short: 'i' }, yes: { type: 'boolean', short: 'y' } },
    positionals: { min: 0, max: 1 },
    load: async () => (await import('./purge.js')).purge,
  },
  {
    path: ['sessions', 'list'],
    summary: 'list the sessions of this directory (id, last activity, turns, title), most recent first, from the local files or a session store',
    usage: 'modloop sessions list [--json] [--cwd DIR] [--session-store URL] [--trust-workspace]',
    options: { ...json, cwd: { type: 'string' }, ...sessionsStore },
    positionals: { min: 0, max: 0 },
    load: async () => (await import('./sessions-list.js')).sessionsList,
  },
  {
    path: ['sessions', 'show'],
    summary: 'replay one session readably: prompts, answers, tool calls and results, turn totals',
    usage: 'modloop sessions show <id> [--cwd DIR] [--session-store URL] [--trust-workspace]',
    options: { cwd: { type: 'string' }, ...sessionsStore },
    positionals: { min: 1, max: 1 },
    load: async () => (await import('./sessions-show.js')).sessionsShow,
  },
  {
    path: ['sessions', 'push'],
    summary: "copy a session of this machine's files into the session store (Postgres), where any machine resumes it",
    usage: 'modloop sessions push <id> [--cwd DIR] [--session-store URL] [--trust-workspace]',
    options: { cwd: { type: 'string' }, ...sessionsStore },
    positionals: { min: 1, max: 1 },
    load: async () => (await import('./sessions-move.js')).sessionsPush,
  },
  {
    path: ['sessions', 'pull'],
    summary: "copy a session of the session store (Postgres) into this machine's files",
    usage: 'modloop sessions pull <id> [--session-store URL] [--trust-workspace]',
    options: { ...sessionsStore },
    positionals: { min: 1, max: 1 },
    load: async () => (await import('./sessions-move.js')).sessionsPull,
  },
  {
    path: ['worker'],
    summary: 'take jobs from a pg-boss queue in Postgres and run each as a session, its transcript in the Postgres session store; SIGTERM finishes or hands back the running jobs',
    usage: 'modloop worker --queue URL [--concurrency N] [--config PATH] [--session-store URL] [--drain-seconds S] [--poll-seconds S] [--reap-seconds S] [--grace-seconds S]',
    options: {
      queue: { type: 'string' }, concurrency: { type: 'string' }, config: { type: 'string' }, ...store,
      'drain-seconds': { type: 'string' }, 'poll-seconds': { type: 'string' }, 'reap-seconds': { type: 'string' }, 'grace-seconds': { type: 'string' },
    },
    positionals: { min: 0, max: 0 },
    load: async () => (await import('./fleet/worker-command.js')).worker,
  },
  {
    path: ['submit'],
    summary: 'put a job on the queue and print its id; with --wait, print what -p would print for it and exit as -p would',
    usage: 'modloop submit --queue URL -p PROMPT|<stdin> [--cwd DIR] [--config PATH] [--wait] [--output-format text|json|stream-json] [--verbose] [--model M] [--max-turns N] [--max-budget-usd X] [--permission-mode MODE] [--allowedTools RULES]... [--disallowedTools RULES]... [--append-system-prompt TEXT] [--script FILE] [--resume ID] [--session-id UUID] [--retries N] [--priority N]',
    options: {
      queue: { type: 'string' }, prompt: { type: 'string', short: 'p' }, cwd: { type: 'string' }, config: { type: 'string' }, wait: { type: 'boolean' },
      'output-format': { type: 'string' }, verbose: { type: 'boolean' }, model: { type: 'string' }, 'max-turns': { type: 'string' }, 'max-budget-usd': { type: 'string' },
      'permission-mode': { type: 'string' }, allowedTools: { type: 'string', multiple: true }, disallowedTools: { type: 'string', multiple: true },
      'append-system-prompt': { type: 'string' }, script: { type: 'string' }, resume: { type: 'string' }, 'session-id': { type: 'string' },
      retries: { type: 'string' }, priority: { type: 'string' },
    },
    positionals: { min: 0, max: 0 },
    load: async () => (await import('./fleet/submit.js')).submit,
  },
  {
    path: ['jobs'],
    summary: "list the queue's jobs (state, session, runs, messages, cost, result); with an id, that job and its messages (--follow: as they arrive; --cancel: cancel it, stopping its turn)",
    usage: 'modloop jobs --queue URL [ID] [--json] [--follow] [--cancel] [--limit N]',
    options: { queue: { type: 'string' }, ...json, follow: { type: 'boolean' }, cancel: { type: 'boolean' }, limit: { type: 'string' } },
    positionals: { min: 0, max: 1 },
    load: async () => (await import('./fleet/jobs.js')).jobs,
  },
  {
    path: ['why'],
    summary: 'which mods changed or decided a tool call (by tool_use_id) or the prompt, from the session trace',
    usage: 'modloop why <tool_use_id|prompt> [--session ID] [--cwd DIR] [--json]',
    options: { ...json, session: { type: 'string' }, cwd: { type: 'string' } },
    positionals: { min: 1, max: 1 },
    load: async () => (await import('./why.js')).why,
  },
  {
    path: ['init'],
    summary: 'scaffold a mod with its test (init mod <name>) or a distribution extending the default one (init distribution <name>)',
    usage: 'modloop init mod|distribution <name> [--dir DIR]',
    options: { dir: { type: 'string' } },
    positionals: { min: 2, max: 2 },
    load: async () => (await import('./init.js')).init,
  },
]

/** The command whose path is the longest prefix of the arguments' leading words. */
export function findCommand(argv: readonly string[]): Command | undefined {
  let best: Command | undefined
  for (const command of COMMANDS) {
    const matches = command.path.every((word, i) => argv[i] === word)
    if (matches && (!best || command.path.length > best.path.length)) best = command
  }
  return best
}
