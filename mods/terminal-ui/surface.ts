import type { Distribution } from '../../runtime/loader/types.js'
import type { QueryOptions } from '../../runtime/options.js'
import type { LogSink } from '../../core/mod/build-api.js'
import type { ModHost } from '../../core/mod/host.js'
import type { TerminalSurface } from './index.js'
import type { Worktree } from '../_shared/worktree.js'

declare module '../../core/mod/capabilities.js' {
  interface Capabilities {
    /** An interactive surface `modloop` can run, provided as `surface.<name>` by the mod that draws it. */
    [surface: `surface.${string}`]: InteractiveSurface
    /** terminal-ui's surface: the terminal connects each session's bridge to that session's terminal-ui through it. */
    'surface.terminal': TerminalSurface
  }
}

export interface TerminalIo {
  stdin: NodeJS.ReadStream
  stdout: NodeJS.WriteStream
  env: Record<string, string | undefined>
}

/** What `modloop` (no `-p`) hands the surface it runs. */
export interface InteractiveContext {
  /** The command line's query options; `cwd` is absolute. Pass `surface: 'terminal'` on to query(). */
  options: QueryOptions & { cwd: string }
  io: TerminalIo
  /** The prompt given on the command line, to send first. */
  prompt?: string
  /** The launch options the exit's resume hint repeats (`--model opus`), empty for none. */
  resumeFlags?: string
  /** `--resume` was given without an id: the session to go on with is picked first (none picked: a new one). */
  pickResume?: boolean
  /** With pickResume: `--resume <text>` named no session, so the picker opens searching for the text. */
  resumeSearch?: string
  /**
   * The distribution for one session, loaded but not bound (pass its host to query()). The first
   * call answers the one the surface was found in, replaying the mod logs of its loading into
   * `log`; each later call (a new session after /resume) loads it afresh.
   */
  load(log: LogSink): Promise<Distribution>
  /**
   * What the CLI's process guard caught while the surface runs: an error no handler awaited.
   * `listen` shows each report in the surface (until it listens they go to stderr), and calls
   * `stop` when one came from modloop itself: end the session as on SIGTERM. modloop then exits 1.
   */
  faults?: FaultFeed
  /** The git worktree `--worktree` made or entered for the session: leaving the session asks what becomes of it. */
  worktree?: Worktree
}

export interface FaultFeed {
  /** Returns the disposer. A stop that came before the surface listened is passed on at once. */
  listen(show: (text: string) => void, stop: (err: Error) => void): () => void
}

/**
 * The contract of the interactive surface: a mod provides one from `register` as a capability
 * named `surface.<name>` (declared in its `provides`), and `modloop` runs the last mod of the
 * distribution that did. `run` owns the terminal until it resolves to the exit code.
 */
export interface InteractiveSurface {
  run(ctx: InteractiveContext): Promise<number>
}

/**
 * The surface `modloop` runs: the last loaded mod that provides one, so a mod a config adds
 * after the default distribution takes over from the built-in terminal-ui.
 */
export function findSurface(host: ModHost): { mod: string; surface: InteractiveSurface } | undefined {
  for (const mod of [...host.list()].reverse()) {
    if (mod.status !== 'loaded') continue
    for (const name of mod.def.provides ?? []) {
      if (!isSurfaceName(name) || host.capabilities.owner(name) !== mod.name) continue
      const surface = host.capabilities.get(name)
      if (typeof surface?.run === 'function') return { mod: mod.name, surface }
    }
  }
  return undefined
}

const isSurfaceName = (name: string): name is `surface.${string}` => name.startsWith('surface.')
