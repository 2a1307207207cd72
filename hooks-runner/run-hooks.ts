import { mkdir } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { backgroundResult, type BackgroundHooks } from './background-hooks.js'
import { describeCause, type HooksWarning } from './errors.js'
import type { HeldGroups } from './held-groups.js'
import { defaultTimeoutSeconds, eventSpec, MAX_TIMEOUT_MS, type HookEventName } from './events.js'
import { baseHookEnv } from './hook-env.js'
import type { HooksConfig, ResolvedHandler } from './hooks-config.js'
import { interpretResult } from './interpret-result.js'
import { mergeRecords } from './merge-results.js'
import type { RawResult } from './raw-result.js'
import type { BackgroundHookHandle, HookRecord, HookRunResult } from './result-types.js'
import { runHandler, type HandlerContext } from './run-handler.js'
import type { LlmHook } from './run-llm.js'
import type { McpHook } from './run-mcp.js'
import { selectHandlers } from './select-handlers.js'
import type { SpareSh } from './spare-sh.js'

export interface RunHooksOptions {
  config: HooksConfig
  /** The project root where the session started: CLAUDE_PROJECT_DIR, and `/pattern` anchors in `if`. */
  projectDir: string
  /** Where hooks run; defaults to the input's `cwd`, then the project dir. */
  cwd?: string
  home?: string
  /** The environment hooks inherit; defaults to `process.env`. */
  env?: NodeJS.ProcessEnv
  /** Cancels every synchronous hook of this firing (user interrupt). Async hooks are not tied to it. */
  signal?: AbortSignal
  /** Prompt and agent hooks call back into the host here; without it they are reported as unsupported. */
  llm?: LlmHook
  /** mcp_tool hooks call the host's MCP client here; without it they are reported as unsupported. */
  mcp?: McpHook
  fetch?: typeof fetch
  /** Async hooks report here when they end; without it, their results are only on `result.background`. */
  background?: BackgroundHooks
  /** Hooks whose left-over processes still hold their pipes are noted here, to be ended later. */
  heldGroups?: HeldGroups
  /** Directory for CLAUDE_ENV_FILE files (one `hook-<id>.sh` per handler) on the events that get one. */
  envFileDir?: string
  /** Ids of `once` handlers already run; the runner adds to it. Keep one per session. */
  onceUsed?: Set<number>
  /** SIGTERM → SIGKILL grace for a timed-out hook's process group. Default 1000 ms. */
  killGraceMs?: number
  /** How long to wait for pipes after exit (a background grandchild may hold them). Default 100 ms. */
  pipeGraceMs?: number
  /** SessionEnd's shared budget; default from CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS or the settings (§4.4). */
  sessionEndBudgetMs?: number
  /** Progress: a hook is starting (its `statusMessage` is on `handler.config`). */
  onHookStart?: (handler: ResolvedHandler) => void
  /** Progress: a hook's record is ready. */
  onHookEnd?: (record: HookRecord) => void
  /** A shell started ahead for the next shell-form command hook (see SpareSh). */
  spare?: SpareSh
}

/**
 * Fires one event: selects the matching handlers, runs them all in parallel (a `sequential` group
 * in order), waits for all, and merges their results in settings order. Never throws for a hook's
 * failure: every failure is a record, and fails open unless the handler says `onError: "deny"`.
 */
export async function runHooks(event: HookEventName, input: Record<string, unknown>, options: RunHooksOptions): Promise<HookRunResult> {
  const started = performance.now()
  const payload = input.hook_event_name === event ? input : { ...input, hook_event_name: event }
  const cwd = options.cwd ?? (typeof input.cwd === 'string' ? input.cwd : options.projectDir)
  const selection = selectHandlers(options.config, event, payload, { cwd, projectDir: options.projectDir, home: options.home, onceUsed: options.onceUsed })
  const warnings: HooksWarning[] = [...selection.warnings]
  const hookName = selection.matchQuery ? `${event}:${selection.matchQuery}` : event
  const finish = (records: HookRecord[], background: BackgroundHookHandle[], envFiles: string[], superseded?: Set<number>): HookRunResult => ({
    event, matchQuery: selection.matchQuery, hookName, ...mergeRecords(event, records, warnings, superseded),
    warnings, records: records.sort((a, b) => a.id - b.id), background, envFiles, durationMs: performance.now() - started,
  })
  if (selection.handlers.length === 0) return finish([], [], [])

  let inputJson: string
  try {
    inputJson = JSON.stringify(payload)
  } catch (err) {
    return finish(selection.handlers.map((h) => unpreparable(event, h, err, warnings)), [], [])
  }
  const env = options.env ?? process.env
  const home = options.home ?? homedir()
  const shared: Omit<HandlerContext, 'timeoutMs' | 'envFile' | 'detectAsync' | 'input' | 'inputJson'> = {
    event, cwd, fallbackDirs: [options.projectDir, home], sharedEnv: baseHookEnv({ base: env, projectDir: options.projectDir, input: payload }),
    signal: options.signal, killGraceMs: options.killGraceMs ?? 1000, pipeGraceMs: options.pipeGraceMs ?? 100,
    llm: options.llm, mcp: options.mcp, fetch: options.fetch ?? fetch, httpEnvBound: options.config.httpHookAllowedEnvVars,
    spare: options.spare,
  }
  const envFiles: string[] = []
  if (eventSpec(event).envFile && options.envFileDir) await mkdir(options.envFileDir, { recursive: true })
  const envFileFor = (h: ResolvedHandler) => {
    if (!eventSpec(event).envFile || !options.envFileDir || h.config.type !== 'command') return undefined
    const file = join(options.envFileDir, `hook-${h.id}.sh`)
    envFiles.push(file)
    return file
  }
  const budgetMs = event === 'SessionEnd' ? sessionEndBudget(options, selection.handlers, env) : Infinity
  const timeoutOf = (h: ResolvedHandler) => Math.min((h.config.timeout ?? defaultTimeoutSeconds(event, h.config.type)) * 1000, budgetMs, MAX_TIMEOUT_MS)
  const ctxFor = (h: ResolvedHandler, input: Record<string, unknown>, json: string, isAsync: boolean): HandlerContext => ({
    ...shared, input, inputJson: json, timeoutMs: timeoutOf(h), envFile: envFileFor(h), detectAsync: !isAsync,
    // Async hooks outlive the firing, so the firing's abort signal does not reach them.
    signal: isAsync ? undefined : options.signal,
  })

  const background: BackgroundHookHandle[] = []
  const startBackground = (h: ResolvedHandler, later: Promise<RawResult>, controller: AbortController) => {
    const rewake = h.config.type === 'command' && h.config.asyncRewake === true
      ? { message: h.config.rewakeMessage, summary: h.config.rewakeSummary }
      : undefined
    const done = later.then((raw) => {
      const record = { ...interpretResult(event, h, raw, []), async: true }
      options.onHookEnd?.(record)
      return backgroundResult(record, rewake)
    })
    const handle: BackgroundHookHandle = { id: h.id, name: h.name, source: h.source, done }
    background.push(handle)
    options.background?.track(handle, controller)
  }

  const runOne = async (h: ResolvedHandler, input: Record<string, unknown>, json: string): Promise<HookRecord> => {
    options.onHookStart?.(h)
    const ctx = ctxFor(h, input, json, false)
    // A command hook may declare itself async and go on in the background: teardown ends it through this.
    const detached = h.config.type === 'command' ? new AbortController() : undefined
    if (detached) ctx.signal = ctx.signal ? AbortSignal.any([ctx.signal, detached.signal]) : detached.signal
    const outcome = await runHandler(h, ctx)
    if (outcome.raw.pipesHeld && outcome.raw.pid !== undefined) options.heldGroups?.add(outcome.raw.pid)
    const record = interpretResult(event, h, outcome.raw, warnings)
    if (outcome.later) {
      record.async = true
      startBackground(h, outcome.later, detached ?? new AbortController())
    }
    if (h.config.once && h.source.honourOnce && record.outcome === 'success') options.onceUsed?.add(h.id)
    options.onHookEnd?.(record)
    return record
  }

  const superseded = new Set<number>()
  const runChain = async (chain: ResolvedHandler[]): Promise<HookRecord[]> => {
    const records: HookRecord[] = []
    let current = payload
    let json = inputJson
    let lastRewrite: number | undefined
    for (const h of chain) {
      const record = await runOne(h, current, json)
      records.push(record)
      const rewritten = record.effect.specific.updatedInput ?? (record.effect.specific.decision as { updatedInput?: Record<string, unknown> } | undefined)?.updatedInput
      if (rewritten && (event === 'PreToolUse' || event === 'PermissionRequest')) {
        if (lastRewrite !== undefined) superseded.add(lastRewrite)
        lastRewrite = record.id
        current = { ...current, tool_input: rewritten }
        json = JSON.stringify(current)
      }
    }
    return records
  }

  const units: Promise<HookRecord[]>[] = []
  const chains = new Map<number, ResolvedHandler[]>()
  for (const h of selection.handlers) {
    if (h.config.type === 'command' && (h.config.async || h.config.asyncRewake)) {
      const controller = new AbortController()
      const ctx = { ...ctxFor(h, payload, inputJson, true), signal: controller.signal }
      options.onHookStart?.(h)
      startBackground(h, runHandler(h, ctx).then((o) => o.raw), controller)
    } else if (h.sequential) {
      const chain = chains.get(h.group)
      if (chain) chain.push(h)
      else chains.set(h.group, [h])
    } else units.push(runOne(h, payload, inputJson).then((r) => [r]))
  }
  for (const chain of chains.values()) units.push(runChain(chain))
  const records = (await Promise.all(units)).flat()
  return finish(records, background, envFiles, superseded)
}

/** All SessionEnd hooks share one budget: 1.5 s, raised to the largest settings-file timeout up to 60 s. */
function sessionEndBudget(options: RunHooksOptions, handlers: readonly ResolvedHandler[], env: NodeJS.ProcessEnv): number {
  if (options.sessionEndBudgetMs !== undefined) return options.sessionEndBudgetMs
  const fromEnv = Number(env.CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS)
  if (Number.isFinite(fromEnv) && fromEnv > 0) return fromEnv
  const settings = handlers.filter((h) => h.source.kind !== 'extra' && h.config.timeout !== undefined).map((h) => h.config.timeout! * 1000)
  return Math.min(Math.max(1500, ...settings), 60_000)
}

/** Input that cannot be serialised: every hook is a non-blocking error, except on the permission gates (fail closed). */
function unpreparable(event: HookEventName, h: ResolvedHandler, err: unknown, warnings: HooksWarning[]): HookRecord {
  const message = `Failed to prepare hook input: ${describeCause(err)}`
  const closed = event === 'PreToolUse' || event === 'PermissionRequest'
  const record = interpretResult(event, h, { status: 'failed', exitCode: null, stdout: '', stderr: '', durationMs: 0, message, errorCode: 'HOOKS_ERR_EXIT' }, warnings)
  if (closed) {
    record.failedClosed = true
    record.effect = event === 'PreToolUse'
      ? { specific: {}, block: message, permission: 'deny', permissionReason: message }
      : { specific: { decision: { behavior: 'deny', message } } }
  }
  return record
}
