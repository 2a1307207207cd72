import { provideLoaded } from '../runtime/loader/config-hooks.js'
import { resolve } from 'node:path'
import { ModloopError } from '../core/errors.js'
import type { Distribution } from '../runtime/loader/types.js'
import type { QueryOptions } from '../runtime/options.js'
import type { LogSink } from '../core/mod/build-api.js'
import { ModHost } from '../core/mod/host.js'
import type { InteractiveContext, TerminalIo } from '../mods/terminal-ui/surface.js'
import type { CommandRun, Values } from './command.js'
import { markEntrypoint } from './entrypoint.js'
import { faultRelay, type FaultRelay } from './fault-relay.js'
import type { Io } from './io.js'
import { guardProcess } from './process-guard.js'
import { tuneHeapForLongSession } from './heap.js'
import { queryOptions } from './headless.js'
import { resumeFlags } from './resume-flags.js'
import { sessionWorktree } from './worktree-flag.js'
import { usageError } from './usage-error.js'
import { builtinsWith, chooseSessionStore } from './session-store.js'
import { sessionBuiltins } from './start-mode.js'
import { settingsPlugins } from '../runtime/plugin-store/settings-plugins.js'
import { needsStreamJson } from './sdk-flags.js'
import { resumeSearch } from './resume-search.js'

/**
 * `modloop` with no `-p`: headless when `-p` is given, otherwise the interactive session, run by
 * whichever mod of the distribution provides the interactive surface (the built-in terminal-ui
 * by default). It needs a terminal on both standard input and output.
 */
export const defaultCommand: CommandRun = async (ctx) => {
  const input = ctx.values['input-format']
  if (input !== undefined && input !== 'text' && input !== 'stream-json') throw usageError('--input-format must be text or stream-json')
  needsStreamJson(ctx.values)
  // The Setup hooks and nothing else, with -p or without: no terminal is needed.
  if (ctx.values['init-only'] === true) return (await import('./setup-flags.js')).initOnly(ctx)
  if (speaksSdkTransport(ctx)) return (await import('./sdk-transport/serve.js')).sdkTransport(ctx)
  if (ctx.values.print === true) return (await import('./headless.js')).headless(ctx)
  return interactive(ctx)
}

/**
 * The Agent SDK's transport: stream-json in (`--input-format stream-json`, with or without -p),
 * or stream-json out without -p and no terminal to type into, which is how the SDK starts its
 * executable when it is told to read the first line before anything else.
 */
function speaksSdkTransport({ values, io }: Parameters<CommandRun>[0]): boolean {
  if (values['input-format'] === 'stream-json') return true
  if (values['output-format'] !== 'stream-json' || values.print === true) return false
  // Read last: process.stdin builds its stream on first access (see io.ts).
  return (io.stdin as { isTTY?: boolean } | undefined)?.isTTY !== true
}

export const interactive: CommandRun = async ({ values, positionals, tokens, io }) => {
  const stdin = io.stdin as NodeJS.ReadStream | undefined
  const stdout = io.stdout as NodeJS.WriteStream
  if (!stdin?.isTTY || !stdout.isTTY || typeof stdin.setRawMode !== 'function') {
    throw usageError('the interactive session needs a terminal on standard input and output: pass -p "<prompt>" to run headless')
  }
  // `--resume` alone: the session is picked from this directory's once the terminal is up.
  const pickResume = values.resume === ''
  const given = queryOptions(pickResume ? { ...values, resume: undefined } : values, io)
  markEntrypoint(io, 'cli')
  // As -p does: a stray error is reported (in the surface once it listens), one of modloop's own ends the session.
  const relay = faultRelay(io.stderr)
  const unguard = io.ownsProcess ? guardProcess(relay.guard.io, relay.guard.stop) : () => {}
  try {
    const code = await runInteractive(values, positionals, io, given, relay, { resumeFlags: resumeFlags(tokens ?? []), ...(pickResume ? { pickResume } : {}) })
    return relay.stopped ? 1 : code
  } finally {
    unguard()
  }
}

async function runInteractive(values: Values, positionals: string[], io: Io, given: QueryOptions, relay: FaultRelay, launch: Pick<InteractiveContext, 'resumeFlags' | 'pickResume'>): Promise<number> {
  const stdin = io.stdin as NodeJS.ReadStream
  const stdout = io.stdout as NodeJS.WriteStream
  const cwd = resolve(io.cwd, given.cwd ?? '.')
  const term: TerminalIo = { stdin, stdout, env: io.env }
  // Nothing of the project loads before the folder is trusted, so the built-in terminal asks.
  const { askTrust } = await import('../mods/terminal-ui/trust-ask.js')
  const trusted = await askTrust(term, cwd)
  if (trusted !== true) return trusted === false ? 1 : trusted.signalExit
  const made = await sessionWorktree(values, cwd, io.env)
  const here = made?.cwd ?? cwd
  // The surface passes these on to query(): the built-in set (the session store among it) comes with them.
  const store = await chooseSessionStore(values, here, given.log)
  // `--resume <text>` naming no session opens the picker searching for the text, as Claude Code's does
  // (a session store keeps its own titles: there the text is resumed by, or refused).
  const search = !store && given.resume !== undefined ? await resumeSearch(given.resume, here, given.env ?? io.env) : undefined
  const picking = search === undefined ? {} : { pickResume: true, resumeSearch: search }
  try {
    const options = { ...given, ...(search === undefined ? {} : { resume: undefined }), builtins: await sessionBuiltins(await builtinsWith(store), given.env ?? io.env, ['terminal-ui'], given.tools), cwd: here }
    return await runSurface(options, positionals, io, term, relay, { ...launch, ...picking, ...(made?.worktree ? { worktree: made.worktree } : {}) })
  } finally {
    await store?.close()
  }
}

async function runSurface(options: QueryOptions & { cwd: string }, positionals: string[], io: Io, term: TerminalIo, relay: FaultRelay, launch: Pick<InteractiveContext, 'worktree' | 'resumeFlags' | 'pickResume' | 'resumeSearch'>): Promise<number> {
  const loader = sessionLoader(options)
  const first = await loader.first
  const { findSurface } = await import('../mods/terminal-ui/surface.js')
  const found = findSurface(first.host)
  if (!found) {
    await first.host.close()
    throw noSurface(first)
  }
  const ctx: InteractiveContext = { options, io: term, prompt: positionals.join(' ') || undefined, load: loader.load, faults: relay.feed, ...launch }
  tuneHeapForLongSession(io)
  return found.surface.run(ctx)
}

/**
 * Loads the distribution as query() would (its settings hooks published for shell-hooks). The
 * first load finds the surface; its mod logs wait for the surface's sink.
 */
function sessionLoader(options: QueryOptions & { cwd: string }): { first: Promise<Distribution>; load: InteractiveContext['load'] } {
  const held: Parameters<LogSink>[] = []
  let sink: LogSink = (...line) => held.push(line)
  const loadWith = async (log: LogSink) => {
    const [{ loadDistribution }, { unreadKeyWarnings }] = await Promise.all([import('../entry.js'), import('../runtime/loader/index.js')])
    const specs = (options.mods ?? []).filter((m): m is string => typeof m === 'string')
    const host = new ModHost({ strict: options.strictMods, log })
    // The built-in set chosen at launch (minimal or safe mode's distribution, the session store).
    const dist = await loadDistribution({ cwd: options.cwd, configPath: options.config, extraMods: specs, strict: options.strictMods, host, settingsPlugins: settingsPlugins(options, options.cwd), ...(options.builtins ? { builtins: options.builtins } : {}) })
    provideLoaded(host, dist.hooks, dist.plugins)
    // What loaded but looks wrong (a disable naming no mod, an option the mod does not have), as -p tells it.
    for (const w of [...dist.warnings, ...unreadKeyWarnings(dist.needsMods, host)]) log('loader', 'warn', w)
    return dist
  }
  const first = loadWith((...line) => sink(...line))
  let used = false
  return {
    first,
    load: async (log) => {
      if (used) return loadWith(log)
      used = true
      sink = log
      for (const line of held.splice(0)) log(...line)
      return first
    },
  }
}

function noSurface(dist: Distribution): ModloopError {
  const where = dist.configFile ?? 'the default distribution'
  const errors = dist.host.errors.map((e) => `\n  ${e.code}${e.mod ? ` ${e.mod}` : ''}: ${e.message.split('\n')[0]}`).join('')
  return new ModloopError('MODLOOP_ERR_CONFIG',
    `no mod of ${where} provides the interactive surface: keep the built-in "terminal-ui" in its mods or add a mod that provides one (a surface.<name> capability), or pass -p "<prompt>" to run headless${errors}`,
    { file: dist.configFile, stage: 'config' })
}
