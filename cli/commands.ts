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
