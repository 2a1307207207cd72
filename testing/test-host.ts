import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TraceEntry } from '../core/bus/bus.js'
import type { ProvenanceRecord } from '../core/trace/record.js'
import type { EventName, PayloadOf, ResultOf } from '../core/events/catalog.js'
import type { SDKMessage, SDKResultMessage } from '../core/loop/messages.js'
import type { ModSpec, QueryOptions } from '../runtime/options.js'
import { query } from '../runtime/query.js'
import { BUILTINS } from '../builtins.js'
import type { ModDefinition } from '../core/mod/define.js'
import { ModHost, type Unanswered } from '../core/mod/host.js'
import { loadScript } from './model/script.js'
import { createScriptedModel, type ScriptedModel } from './model/scripted.js'

export interface TestHostOptions {
  /** A distribution config to load (path); default: none — only `mods` load. */
  config?: string
  /** Mods: definitions, or specifiers resolved from `cwd`. */
  mods?: ModSpec[]
  /** The model script (steps, or a path); each run consumes steps in order. */
  script?: unknown
  /** The working directory; default: a fresh temp dir. */
  cwd?: string
  /**
   * Environment variables over process.env for mods (`$.env`), runs and hook processes. By default
   * HOME, CLAUDE_CONFIG_DIR and MODLOOP_HOME point into the host's temp dir, so the developer's
   * own settings, hooks, CLAUDE.md and sessions are neither read nor written; set them here to
   * use others.
   */
  env?: Record<string, string | undefined>
  /**
   * Fail `run()` and `emit()` when a call into `$` had no answer (a method no part of the host
   * provides, a registered tool no tool.call handler served); default true. With false such calls
   * are only recorded, in `host.unanswered`.
   */
  strict?: boolean
}

export interface TestRun {
  messages: SDKMessage[]
  result: SDKResultMessage
}

export interface TestHost {
  readonly host: ModHost
  readonly model: ScriptedModel
  readonly cwd: string
  /** The environment mods and runs see: process.env with the host's own home (see `env`). */
  readonly env: Record<string, string | undefined>
  /** Runs one prompt through the real loop with the scripted model; returns every message. */
  run(prompt: string, options?: QueryOptions): Promise<TestRun>
  /** Runs one event through the handler chain; `core` answers beneath the last handler. */
  emit<N extends EventName>(event: N, payload: PayloadOf<N>, core?: (e: PayloadOf<N>) => ResultOf<N> | Promise<ResultOf<N>>): Promise<ResultOf<N>>
  /** Which mod handled what, in order, since the host was made. */
  trace(): readonly TraceEntry[]
  /** What mods changed or decided about a tool call (by tool_use_id) or, with `'prompt'`, the prompt. */
  why(subject: string): readonly ProvenanceRecord[]
  /** Tears the mods down and removes the temp dir the host made (a `cwd` passed in stays). */
  close(): Promise<void>
}

/**
 * A host for testing mods: the real bus and loader, the scripted model, a temp working dir and
 * home. Handler failures are kept in `host.failures`; load errors in `host.errors`.
 */
export async function createTestHost(options: TestHostOptions = {}): Promise<TestHost> {
  const temp = await realpath(await mkdtemp(join(tmpdir(), 'modloop-test-')))
  const cwd = options.cwd ?? join(temp, 'work')
  const home = join(temp, 'home')
  await mkdir(cwd, { recursive: true })
  await mkdir(join(home, '.claude'), { recursive: true })
  const env = { ...process.env, HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude'), MODLOOP_HOME: join(home, '.modloop'), ...options.env }
  const host = new ModHost({ env })
  const entries: TraceEntry[] = []
  host.bus.trace((e) => entries.push(e))
  const changes: ProvenanceRecord[] = []
  host.bus.onProvenance((r) => changes.push(r))
  const specs = (options.mods ?? []).filter((m): m is string | [string, Record<string, unknown>] => typeof m === 'string' || Array.isArray(m))
  if (options.config || specs.length > 0) {
    const { loadDistribution } = await import('../entry.js')
    // Without a config, only the named mods load: built-in names still resolve, the default distribution does not.
    await loadDistribution({ cwd, host, configPath: options.config, bare: !options.config, extraMods: specs })
  }
  for (const def of options.mods ?? []) if (typeof def === 'object' && !Array.isArray(def)) await host.add(def as ModDefinition, { source: 'createTestHost' })
  const model = createScriptedModel(await loadScript(options.script ?? []))
  const strict = options.strict ?? true
  /** Throws when calls since `mark` went unanswered, naming the event and the `$` method of each. */
  const check = (mark: number) => {
    const missed = host.unanswered.slice(mark)
    if (strict && missed.length > 0) throw new Error(missed.map(describeUnanswered).join('\n'))
  }
  return {
    host, model, cwd, env,
    async run(prompt, queryOptions = {}) {
      const mark = host.unanswered.length
      const messages: SDKMessage[] = []
      try {
        for await (const m of query({ prompt, options: { cwd, env, builtins: BUILTINS, ...queryOptions, host, modelProvider: model } })) messages.push(m)
      } catch {
        // an error result is in `messages`; single-shot queries throw after yielding it
      }
      const result = messages.filter((m): m is SDKResultMessage => m.type === 'result').at(-1)
      check(mark)
      if (!result) throw new Error('the run ended without a result message')
      return { messages, result }
    },
    async emit(event, payload, core) {
      if (!host.isBound) host.bind()
      const mark = host.unanswered.length
      // An unanswered call is the cause of whatever failed after it, so it is reported first.
      const r = await host.bus.emit(event, payload, core).catch((err: unknown) => {
        check(mark)
        throw err
      })
      check(mark)
      return r
    },
    trace: () => entries,
    why: (subject) => changes.filter((r) => r.subject === subject),
    close: async () => {
      try {
        await host.close()
      } finally {
        // The temp dir holds the default cwd and home; a cwd the caller passed is outside it.
        await rm(temp, { recursive: true, force: true })
      }
    },
  }
}

function describeUnanswered(u: Unanswered): string {
  const where = u.event ? `${u.event}: ` : ''
  return `${where}$.${u.method} (called by ${u.mod}) was not answered: ${u.message}. Give the test a mod or script that answers it, or pass { strict: false }`
}
