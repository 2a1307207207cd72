import { uuid } from '../../core/random.js'
import { join } from 'node:path'
import type { ModApi } from '../../core/mod/api.js'
import {
  createHooksRunner, matchValue, resolveHooks, type BackgroundHookResult, type HookEventName, type HookRecord, type HookRunResult, type HooksRunner,
  type HooksConfig, type LoadedHookSources, type ResolvedHandler,
} from '../../hooks-runner/index.js'
import { EffortTracker, EFFORT_EVENTS, effortEnv } from './effort.js'
import { hookFetch } from './hook-fetch.js'
import { hookWork, hostLlm, hostMcp } from './host-calls.js'
import { capOutput, capText, OUTPUT_CAP } from './output-cap.js'
import { fingerprintOf, isProjectLevel } from './trust.js'
import { sessionDirOf } from '../transcripts/store/paths.js'
import '../_shared/shell-cwd.js'

export interface BridgeInit {
  sessionId: string
  cwd: string
  transcriptPath: string
  loaded: LoadedHookSources
  /** Fingerprints of project hooks approved for this workspace. */
  approved: ReadonlySet<string>
  /** The record of trusted folders and approvals (`trusted.json`). */
  trustStore: string
  includeHookEvents: boolean
  envFileDir?: string
}

/** A PreToolUse verdict waiting for the permission check of the same call. */

export interface FireOptions {
  agentId?: string
  agentType?: string
  signal?: AbortSignal
  /** Input fields the event's example omits (spec §2.1: SessionStart, SessionEnd, … carry no permission_mode). */
  noPermissionMode?: boolean
  /** Hook errors go to the debug log only (MessageDisplay: the original text is shown, spec §2.8). */
  quiet?: boolean
}

// Events whose hook_started/hook_response are emitted even without includeHookEvents (spec §4.10).
const ALWAYS_SHOWN = new Set<HookEventName>(['SessionStart', 'Setup'])
// Events that never emit hook_started (spec §4.10).
const NEVER_SHOWN = new Set<HookEventName>(['Notification', 'SessionEnd', 'PreCompact', 'PostCompact'])
const NO_HOOKS: HooksConfig = { handlers: [] }
const AGENT_ID_BASE = 1_000_000
const groupsOf = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v])

/**
 * One session's side of the bridge: the hooks-runner bound to the session's config, the common
 * input fields every event carries (spec §2.1), and where a firing's notices go — hook errors and
 * `systemMessage`s as `system` informational messages (and the log), hook progress as
 * `hook_started` / `hook_response` messages when asked for.
 */
export class HookBridge {
  readonly runner: HooksRunner
  /** Subagent types by agent id (SubagentStart, and `agent_type` of their events). */
  readonly agentTypes = new Map<string, string>()
  /** Setup and SessionStart context, for the first prompt. */
  startContext: string[] = []
  /** The launch runs the Setup hooks and nothing else (`--init-only`): no SessionStart, no SessionEnd. */
  setupOnly = false
  /** The effective effort level per agent, for `effort` on stdin and `CLAUDE_EFFORT`. */
  readonly effort: EffortTracker
  /** The session title a SessionStart or UserPromptSubmit hook set (`session_title` on later inputs). */
  title: string | undefined
  /** The id of the user prompt being handled: `prompt_id` on every input of the events that prompt causes. */
  promptId: string | undefined
  private readonly reported = new Set<string>()
  /** Warnings already shown this session: a bad matcher would otherwise repeat on every call. */
  private readonly warned = new Set<string>()
  /** CLAUDE_ENV_FILE files of this session's hooks, published for the bash mod to source. */
  /** This session's `CLAUDE_ENV_FILE` files, offered as the `hookEnvFiles` capability. */
  readonly envFiles = new Set<string>()
  private instructionsSeen = 0
  private readonly pending = new Set<Promise<unknown>>()
  /** Async hooks that ended with something for the model, not yet delivered. */
  private readonly arrived: BackgroundHookResult[] = []
  /** Context for the next request from hooks outside a turn's flow (PostModelSwitch). */
  readonly later: string[] = []
  /** The settings hooks, then the frontmatter hooks of skills run so far. */
  private config: HooksConfig
  private readonly frontmatterFiles = new Set<string>()
  /** Frontmatter hooks of the subagents running now, by agent id. */
  private readonly agentHooks = new Map<string, ResolvedHandler[]>()
  private agentScopes = 0

  constructor(private readonly $: ModApi, readonly init: BridgeInit) {
    this.config = init.loaded.config
    this.runner = createHooksRunner({ config: init.loaded.config, projectDir: init.cwd, envFileDir: init.envFileDir, llm: hostLlm($), mcp: hostMcp($), fetch: hookFetch(() => $.env.all()) })
    this.effort = new EffortTracker($)
    this.runner.background.onResult((r) => {
      if (r.additionalContext || r.systemMessage || r.rewake) this.arrived.push(r)
    })
  }

  /**
   * Context waiting for the next request: `later`, then what async hooks that ended since the
   * last call say to the model (spec §4.5) — their `additionalContext` and `systemMessage`, and an
   * `asyncRewake` hook's exit-2 text. With `onlyIfRewake`, only a rewake (with what came along) is taken.
   */
  async takeAsync(onlyIfRewake = false): Promise<string[]> {
    const queued = onlyIfRewake ? [] : this.later.splice(0)
    if (this.arrived.length === 0 || (onlyIfRewake && !this.arrived.some((r) => r.rewake !== undefined))) return queued
    const arrived = this.arrived.splice(0)
    // The message, then the context, each as the hook wrote it: how Claude Code hands them to the model.
    const texts = arrived.flatMap((r) => [
      ...(r.systemMessage ? [[r.event, r.systemMessage]] : []),
      ...(r.additionalContext ? [[r.event, r.additionalContext]] : []),
      ...(r.rewake ? [[r.event, r.rewakeMessage ? `${r.rewakeMessage}\n${r.rewake}` : `${r.event} hook \`${r.record.name}\` (async) reported: ${r.rewake}`]] : []),
    ])
    for (const r of arrived) if (r.rewake && r.rewakeSummary) this.notice(r.rewakeSummary)
    return [...queued, ...(await Promise.all(texts.map(([event, text]) => capText(text!, event!, this.sessionDir))))]
  }

  /** The session's directory beside its transcript: hook env files and oversized hook output live there. */
  get sessionDir(): string {
    return sessionDirOf(this.init.transcriptPath)
  }

  /** Whether any hook is configured for the event, so that a bridge point costs nothing without one. */
  has(event: HookEventName): boolean {
    if (this.config.handlers.some((h) => h.event === event)) return true
    for (const own of this.agentHooks.values()) if (own.some((h) => h.event === event)) return true
    return false
  }

  /**
   * A skill's or command's frontmatter hooks, kept for the rest of the session once it has run
   * (spec §1.8); `once: true` holds for them. Appended after every other hook, so the ids of
   * those already run (the `once` record) stay theirs. A file's hooks are added once.
   */
  addFrontmatterHooks(file: string, hooks: unknown): void {
    if (this.frontmatterFiles.has(file)) return
    this.frontmatterFiles.add(file)
    const { disabled } = this.init.loaded
    if (disabled.all || disabled.managedOnly) return this.warn(`${file}: frontmatter hooks not run (hooks are switched off by ${disabled.by ?? 'the settings'})`)
    const r = resolveHooks([{ source: { kind: 'extra', file, label: 'Skill Hooks', dedupClass: `extra:${file}`, honourOnce: true }, hooks }])
    for (const p of [...r.errors, ...r.warnings]) this.warn(p.message)
    const ids = this.config.handlers.length
    const groups = Math.max(-1, ...this.config.handlers.map((h) => h.group)) + 1
    const added = r.config.handlers.map((h) => ({ ...h, id: h.id + ids, group: h.group + groups }))
    this.config = { ...this.config, handlers: [...this.config.handlers, ...added] }
  }

  /**
   * An agent type's frontmatter hooks for one subagent: they hold for that subagent's events only,
   * until `dropAgentHooks` at its end (spec §1.8). As a subagent, the agent's `Stop` hooks are its
   * `SubagentStop` hooks. Their ids lie far above the session's, which grow as skills add theirs.
   */
  addAgentHooks(agentId: string, file: string, hooks: Record<string, unknown>): void {
    const { disabled } = this.init.loaded
    if (disabled.all || disabled.managedOnly) return this.warn(`${file}: frontmatter hooks not run (hooks are switched off by ${disabled.by ?? 'the settings'})`)
    const { Stop, ...rest } = hooks
    const asSubagent = Stop === undefined ? rest : { ...rest, SubagentStop: [...groupsOf(rest.SubagentStop), ...groupsOf(Stop)] }
    const r = resolveHooks([{ source: { kind: 'extra', file, label: 'Agent Hooks', dedupClass: `extra:${file}` }, hooks: asSubagent }])
    for (const p of [...r.errors, ...r.warnings]) this.warn(p.message)
    const base = AGENT_ID_BASE * ++this.agentScopes
    this.agentHooks.set(agentId, r.config.handlers.map((h) => ({ ...h, id: h.id + base, group: h.group + base })))
  }

  dropAgentHooks(agentId: string): void {
    this.agentHooks.delete(agentId)
  }

  /** The session's hooks, and those of the subagent the event belongs to. */
  private configFor(agentId: string | undefined): HooksConfig {
    const own = agentId === undefined ? undefined : this.agentHooks.get(agentId)
    return own?.length ? { ...this.config, handlers: [...this.config.handlers, ...own] } : this.config
  }

  agentOptions(agentId: string | undefined): FireOptions {
    return agentId ? { agentId, agentType: this.agentTypes.get(agentId) ?? 'general-purpose' } : {}
  }

  /** Fires InstructionsLoaded for memory files loaded since the last call; these run in the background (spec §2.5). */
  instructionsLoaded(): void {
    if (!this.has('InstructionsLoaded')) return
    const loads = this.$.capability.use('memory')?.loaded()
    if (!loads) return
    for (const load of loads.slice(this.instructionsSeen)) this.background(this.fire('InstructionsLoaded', { ...load }, { noPermissionMode: true }))
    this.instructionsSeen = loads.length
  }

  background(work: Promise<unknown>): void {
    const tracked = work.catch(() => {}).finally(() => this.pending.delete(tracked))
    this.pending.add(tracked)
  }

  /** Waits for background firings, then ends async hooks still running. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.pending])
    await this.runner.close()
  }

  /** The stdin JSON of one event: the common fields, then the event's own. */
  input(event: HookEventName, fields: Record<string, unknown>, o: FireOptions = {}): Record<string, unknown> {
    const level = EFFORT_EVENTS.has(event) ? this.effort.level(o.agentId) : undefined
    return {
      session_id: this.init.sessionId,
      transcript_path: this.init.transcriptPath,
      // Where the shell is after `cd`; hooks also run there. CLAUDE_PROJECT_DIR stays the project root.
      cwd: this.$.capability.use('shellCwd')?.(this.init.sessionId) ?? this.init.cwd,
      ...(o.noPermissionMode ? {} : { permission_mode: this.permissionMode() }),
      ...(level ? { effort: { level } } : {}),
      hook_event_name: event,
      ...(this.promptId ? { prompt_id: this.promptId } : {}),
      ...(o.agentId ? { agent_id: o.agentId } : {}),
      ...(o.agentType ? { agent_type: o.agentType } : {}),
      ...fields,
    }
  }

  /** Runs the event's matching hooks and reports what they say beside their decisions. */
  async fire(event: HookEventName, fields: Record<string, unknown>, o: FireOptions = {}): Promise<HookRunResult> {
    const input = this.input(event, fields, o)
    // The work of a prompt, agent or mcp_tool hook (its subagent's tool calls, …) raises no hooks.
    if (hookWork.getStore()) return this.runner.run(event, input, { config: NO_HOOKS })
    const show = !NEVER_SHOWN.has(event) && (this.init.includeHookEvents || ALWAYS_SHOWN.has(event))
    const ids = new Map<number, string>()
    const hookName = (() => {
      const q = matchValue(event, input)
      return q ? `${event}:${q}` : event
    })()
    const ran = await this.runner.run(event, input, {
      config: this.configFor(o.agentId),
      signal: o.signal,
      env: effortEnv(this.effort.level(o.agentId), this.$.env.all()),
      onHookStart: show ? (h) => {
        const id = uuid()
        ids.set(h.id, id)
        this.post({ subtype: 'hook_started', hook_id: id, hook_name: hookName, hook_event: event })
      } : undefined,
      onHookEnd: show ? (record) => this.post(hookResponse(record, ids.get(record.id) ?? uuid(), hookName)) : undefined,
    })
    const r = await capOutput(ran, this.sessionDir)
    this.report(r, o.quiet === true)
    this.publishEnvFiles(r.envFiles)
    return r
  }

  /** A runner or load warning as a visible notice, once per session per text. */
  warn(text: string): void {
    if (this.warned.has(text)) return
    this.warned.add(text)
    this.notice(`settings hooks warning: ${text}`, 'warning')
  }

  /** A `system` message for the caller's stream; warnings also go to the log (stderr headless). */
  notice(content: string, level: 'info' | 'warning' = 'info'): void {
    if (level === 'warning') this.$.log.warn(content)
    this.post({ subtype: 'informational', level, content })
  }

  private post(fields: Record<string, unknown>): void {
    try {
      void this.$.session.append({ message: { type: 'system', ...fields } })
    } catch {
      // A host without a message stream (a bare test host): the log still has warnings.
    }
  }

  private report(r: HookRunResult, quiet: boolean): void {
    for (const p of r.errors) {
      const text = `${r.hookName} hook error (${p.source.label}: ${p.source.file}): ${p.hook}: ${p.message}`
      if (quiet) this.$.log.debug(text)
      else this.notice(text, 'warning')
    }
    for (const m of r.systemMessages) {
      // Claude Code's wording and level, which stream readers match on; stderr still shows it headless.
      const text = `${r.hookName} says: ${m.text}`
      this.$.log.warn(text)
      this.post({ subtype: 'informational', level: 'notice', content: text })
    }
    for (const w of r.warnings) this.warn(w.message)
    for (const record of r.records) {
      // What `--debug hooks` shows: each run, as Claude Code's debug log tells it.
      this.$.log.debug(`${r.hookName} [${record.name}] ${record.outcome}, status ${record.exitCode ?? record.httpStatus ?? record.signal ?? 'none'} (${Math.round(record.durationMs)}ms)`)
      // An exit 2 the event ignores (Notification, PermissionDenied, …) is shown nowhere: the debug log keeps its stderr.
      if (record.exitCode === 2 && record.outcome === 'success') this.$.log.debug(`${r.hookName} hook ${record.name}: ${record.message ?? 'exit 2'}: ${record.stderr.trim() || 'no stderr output'}`)
      const h = this.config.handlers.find((x) => x.id === record.id)
      if (!h || !isProjectLevel(h)) continue
      const fp = fingerprintOf(h)
      if (this.init.approved.has(fp) || this.reported.has(fp)) continue
      this.reported.add(fp)
      this.$.log.warn(`ran a project hook not yet reviewed in this workspace: ${h.event}${h.matcher ? ` [${h.matcher}]` : ''} \`${h.name}\` (${h.source.file}; fingerprint ${fp}; review with: modloop hooks list)`)
    }
  }

  private publishEnvFiles(files: readonly string[]): void {
    for (const f of files) this.envFiles.add(f)
  }

  private permissionMode(): string {
    return this.$.capability.use('permissionMode')?.mode() ?? 'default'
  }
}

// hook_response is shown and kept in the transcript: a hook's megabytes of output are not.
const shown = (text: string) => (text.length <= OUTPUT_CAP ? text : `${text.slice(0, OUTPUT_CAP)}\n[cut: the hook printed ${text.length} characters; the first ${OUTPUT_CAP} are shown]`)

function hookResponse(record: HookRecord, id: string, hookName: string): Record<string, unknown> {
  const outcome = record.outcome === 'success' || record.outcome === 'blocking' ? 'success' : record.outcome === 'cancelled' || record.outcome === 'timeout' ? 'cancelled' : 'error'
  return {
    subtype: 'hook_response', hook_id: id, hook_name: hookName, hook_event: record.event,
    // A hook that failed with no exit status of its own (killed at its timeout, an mcp_tool or http error) counts as status 1 (spec §4.2).
    output: shown(record.stdout + record.stderr), stdout: shown(record.stdout), stderr: shown(record.stderr), exit_code: record.exitCode ?? (outcome === 'success' ? undefined : 1), outcome,
    // modloop additions: which hook it was, where it was configured, and why it failed. Not
    // `message`: a system message line's `message` is the transcript's API-message field.
    command: record.name, source_file: record.source.file, ...(record.message ? { detail: record.message } : {}),
  }
}

/**
 * Each context string, headed as Claude Code heads injected hook context: plain stdout as
 * `<hook> hook success:`, an `additionalContext` as `<hook> hook additional context:` — the bare
 * event name on SessionStart, whose match query (startup, resume, …) Claude Code leaves out there.
 */
export function contexts(r: HookRunResult): string[] {
  const name = r.event === 'SessionStart' ? r.event : r.hookName
  return r.additionalContexts.map((c) => (c.stdout ? `${r.hookName} hook success: ${c.text}` : `${name} hook additional context: ${c.text}`))
}

export const envFileDir = (transcriptPath: string) => join(sessionDirOf(transcriptPath), 'hook-env')
