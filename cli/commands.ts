import type { Command } from './command.js'
import { LOAD_OPTIONS, LOAD_USAGE } from './load-args.js'
import { HEADLESS_OPTIONS, HEADLESS_USAGE } from './headless-options.js'

const json = { json: { type: 'boolean' } } as const

/** Every command, by the words that select it. Later commands (headless `-p`, …) add rows here. */
export const COMMANDS: readonly Command[] = [
  {
    path: [],
    summary: 'run one prompt headless (-p) and print the answer, the result as JSON, or every message as JSON lines',
    usage: HEADLESS_USAGE,
    options: HEADLESS_OPTIONS,
    positionals: { min: 0, max: Infinity },
    load: async () => (await import('./headless.js')).headless,
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
    summary: 'list the mods of the distribution, their options and status, and load errors',
    usage: `modloop mods list [--json] ${LOAD_USAGE}`,
    options: { ...LOAD_OPTIONS, ...json },
    positionals: { min: 0, max: 0 },
    load: async () => (await import('./mods-list.js')).modsList,
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
    usage: `modloop permissions check <Tool> ['<json input>'] [--mode M] [--cwd DIR] [--allowedTools RULES] [--disallowedTools RULES] [--add-dir DIR]... [--trust-workspace] [--json] ${LOAD_USAGE}`,
    options: {
      ...LOAD_OPTIONS, ...json, mode: { type: 'string' }, cwd: { type: 'string' }, 'trust-workspace': { type: 'boolean' },
      allowedTools: { type: 'string', multiple: true }, disallowedTools: { type: 'string', multiple: true }, 'add-dir': { type: 'string', multiple: true },
    },
    positionals: { min: 1, max: 2 },
    load: async () => (await import('./permissions-check.js')).permissionsCheck,
  },
  {
    path: ['trust'],
    summary: 'trust a workspace (default: the current directory) so its project settings may widen access',
    usage: 'modloop trust [DIR] [--revoke] [--list]',
    options: { revoke: { type: 'boolean' }, list: { type: 'boolean' } },
    positionals: { min: 0, max: 1 },
    load: async () => (await import('./trust.js')).trust,
  },
  {
    path: ['sessions', 'list'],
    summary: 'list the sessions of this directory (id, last activity, turns, title), most recent first',
    usage: 'modloop sessions list [--json] [--cwd DIR]',
    options: { ...json, cwd: { type: 'string' } },
    positionals: { min: 0, max: 0 },
    load: async () => (await import('./sessions-list.js')).sessionsList,
  },
  {
    path: ['sessions', 'show'],
    summary: 'replay one session readably: prompts, answers, tool calls and results, turn totals',
    usage: 'modloop sessions show <id> [--cwd DIR]',
    options: { cwd: { type: 'string' } },
    positionals: { min: 1, max: 1 },
    load: async () => (await import('./sessions-show.js')).sessionsShow,
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
