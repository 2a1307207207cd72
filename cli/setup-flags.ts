import type { CommandRun, Values } from './command.js'
import { markEntrypoint } from './entrypoint.js'
import { usageError } from './usage-error.js'

const SETUP_FLAGS = ['init', 'init-only', 'maintenance'] as const

/**
 * `--init`, `--init-only` and `--maintenance` as query()'s pass-through flags (the shell-hooks mod
 * runs the Setup hooks from them, with trigger init or maintenance). They name one chore each, so
 * two together are refused rather than one of them quietly dropped.
 */
export function setupArgs(values: Values): Record<string, null> {
  const given = SETUP_FLAGS.filter((f) => values[f] === true)
  if (given.length > 1) throw usageError(`${given.map((f) => `--${f}`).join(' and ')} cannot be given together: pick one`)
  return given.length === 1 ? { [given[0]!]: null } : {}
}

/**
 * `modloop --init-only` (with or without -p): runs the Setup hooks with trigger init and exits, as
 * Claude Code does, without a prompt, a model request, SessionStart or SessionEnd, and leaves no
 * session behind. Exit 0 once they ran (a failing hook is reported on stderr, as in a session), 1
 * when the session could not open (a config that does not load, say).
 */
export const initOnly: CommandRun = async ({ values, positionals, io }) => {
  if (positionals.length > 0) throw usageError('--init-only runs the Setup hooks and exits: it takes no prompt')
  setupArgs(values)
  const [{ queryOptions }, { builtinsWith }, { sessionBuiltins }, { query }] = await Promise.all([
    import('./headless.js'), import('./session-store.js'), import('./start-mode.js'), import('../entry.js'),
  ])
  const options = queryOptions(values, io)
  markEntrypoint(io, 'sdk-cli')
  options.builtins = await sessionBuiltins(await builtinsWith(undefined), options.env ?? io.env, [], options.tools)
  // No prompt is ever sent: the session opens (its start runs the hooks) and the empty input ends it.
  const q = query({ prompt: (async function* () {})(), options: { ...options, persistSession: false } })
  // What the hooks say (a systemMessage, a failure) reaches stderr through the log; stdout stays empty.
  for await (const m of q) void m
  return 0
}
