import { constants as osConstants } from 'node:os'
import type { QueryOptions } from '../runtime/options.js'
import type { SDKMessage, SDKResultMessage } from '../core/loop/messages.js'
import type { CommandRun, Values } from './command.js'
import { markEntrypoint } from './entrypoint.js'
import { HEADLESS_VARIADIC } from './headless-options.js'
import { sessionWorktree } from './worktree-flag.js'
import { mcpConfigServers } from './mcp-config.js'
import { readJsonArg } from './json-arg.js'
import { splitRuleList } from './permissions-rule-list.js'
import { renderPretty } from './pretty.js'
import { tuneHeapForLongSession, underWay } from './heap.js'
import { reasoningOptions } from './reasoning-options.js'
import { pluginDirSpecs } from './plugin-dirs.js'
import { usageError } from './usage-error.js'
import { refuseBypass } from './root-bypass.js'
import { headlessPrompt } from './piped-input.js'
import { guardProcess } from './process-guard.js'
import { PERMISSION_MODES, permissionModeOf } from '../core/permission-modes.js'
import { builtinsWith, chooseSessionStore } from './session-store.js'
import { restrictedMode, safeMode, sessionBuiltins, startModeEnv } from './start-mode.js'
import { sdkFlagOptions } from './sdk-flags.js'
import { agentsFlag } from './agents-flag.js'
import { autocompactEnv } from './autocompact-flag.js'
import { num, str } from './flag-values.js'
import { AbortError } from '../runtime/abort-error.js'
import { isModloopError } from '../core/errors.js'
import { rewindFilesOnly } from './rewind-files.js'
import { replacesSystemPrompt, systemPromptFlags } from './system-prompt-files.js'
import { setupArgs } from './setup-flags.js'

const FORMATS = ['text', 'json', 'stream-json'] as const
// How long -p waits for background tasks once its turn is over, unless --max-wait-tasks says otherwise.
const DEFAULT_MAX_WAIT_TASKS_S = 600
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/**
 * `modloop -p`: one turn, headless. text prints the answer (each turn's), json the result object (with
 * --verbose: every message, in one JSON array), stream-json every message as one JSON line (the shape consumers of `claude -p --output-format stream-json
 * --verbose` read). Background tasks the turn started are waited for (at most --max-wait-tasks
 * seconds, and within --max-turns): each one's report is a turn of its own, and the last result
 * is the run's. Exit 0 on success, 1 on an error result or bad usage, 128 + the signal's
 * number when SIGINT, SIGTERM or SIGHUP stopped it (after SessionEnd ran).
 */
export const headless: CommandRun = async ({ values, positionals, io }) => {
  const format = (values['output-format'] ?? 'text') as (typeof FORMATS)[number]
  if (!FORMATS.includes(format)) throw usageError(`--output-format must be one of ${FORMATS.join(', ')}`)
  const prompt = await headlessPrompt(positionals, io)
  // Resuming may come without a prompt: a tool call a deferral held back runs first.
  const resuming = values.resume !== undefined || values.continue === true
  const rewindTo = str(values, 'rewind-files')
  if (!prompt.trim() && !resuming && rewindTo === undefined) throw usageError(`no prompt: give one after -p or on standard input${listFlagsHint(values)}`)
  const options = queryOptions(values, io)
  options.cwd = (await sessionWorktree(values, options.cwd ?? io.cwd, io.env))?.cwd ?? options.cwd
  markEntrypoint(io, 'sdk-cli')
  const store = await chooseSessionStore(values, options.cwd ?? io.cwd, options.log)
  try {
    options.builtins = await sessionBuiltins(await builtinsWith(store), options.env ?? io.env, [], options.tools)
    if (rewindTo !== undefined) return await rewindFilesOnly(rewindTo, prompt, options, io)
    return await run(format, prompt, options, values, io)
  } finally {
    await store?.close()
  }
}

// A list flag takes every word after it up to the next option, so a prompt written after one is
// taken as one of its values; say so rather than only that the prompt is missing.
function listFlagsHint(values: Values): string {
  const given = HEADLESS_VARIADIC.filter((name) => values[name] !== undefined)
  return given.length === 0 ? '' : ` (${given.map((n) => `--${n}`).join(', ')} ${given.length === 1 ? 'takes every word after it' : 'take every word after each'} up to the next option: put the prompt before it, or after --)`
}

async function run(format: (typeof FORMATS)[number], prompt: string, options: QueryOptions, values: Values, io: Parameters<CommandRun>[0]['io']): Promise<number> {
  const { query } = await import('../entry.js')
  const abort = new AbortController()
  options.abortController = abort
  // A signal ends the turn the way an interrupt does: Bash trees are killed as their calls abort,
  // and the session closes with SessionEnd before the exit code says which signal it was.
  let caught: NodeJS.Signals | undefined
  const onSignal = (signal: NodeJS.Signals) => {
    caught ??= signal
    abort.abort(new Error(signal === 'SIGINT' ? 'interrupted' : `stopped by ${signal}`))
  }
  // Only where the CLI owns the process: a test or an embedder keeps its own signal handling.
  const signals = io.ownsProcess ? STOP_SIGNALS : []
  for (const s of signals) process.once(s, onSignal)
  const unguard = io.ownsProcess ? guardProcess(io, (err) => abort.abort(err)) : () => {}
  let result: SDKResultMessage | undefined
  // json with --verbose prints every message as one JSON array, as `claude -p` does.
  const all: SDKMessage[] | undefined = format === 'json' && values.verbose === true ? [] : undefined
  // text shows each turn's answer as it ends, a blank line between two, as `claude -p` does: the
  // prompt's answer is not lost (nor held back) when a background task's report runs a turn after it.
  let answered = false
  let answers = 0
  try {
    for await (const m of query({ prompt, options })) {
      if (m.type === 'assistant' && underWay(m, answers++)) tuneHeapForLongSession(io)
      if (m.type === 'result') result = m
      if (m.type === 'result' && format === 'text') {
        if (answered && m.subtype === 'success') io.stdout.write('\n')
        printResult(format, m, io)
        answered ||= m.subtype === 'success'
      }
      if (all && m.type !== 'stream_event') all.push(m)
      print(format, values.verbose === true, m, io)
    }
  } catch (err) {
    // --resume with a text that is neither an ID nor a title: what the terminal searches for, -p refuses as Claude Code's --print does.
    if (isModloopError(err, 'MODLOOP_ERR_SESSION') && err.stage === 'title') throw usageError(`${RESUME_NEEDS_ID} (${err.message})`)
    // The abort is this process's own (a signal, a crash guard): the exit status tells of it.
    if (!result && !(err instanceof AbortError)) throw err
  } finally {
    for (const s of signals) process.off(s, onSignal)
    unguard()
  }
  if (caught) {
    if (result && format === 'json') io.stdout.write(`${JSON.stringify(all ?? result)}\n`)
    io.stderr.write(`modloop: stopped by ${caught}\n`)
    return 128 + osConstants.signals[caught]
  }
  if (!result) return 1
  if (format === 'text') return result.is_error ? 1 : 0
  if (all) {
    io.stdout.write(`${JSON.stringify(all)}\n`)
    return result.is_error ? 1 : 0
  }
  return printResult(format, result, io)
}

/** The end of a `-p` run: the result as its format shows it (stream-json printed it already); answers the exit code. */
export function printResult(format: string, result: SDKResultMessage, io: { stdout: { write(t: string): unknown }; stderr: { write(t: string): unknown } }): number {
  if (format === 'json') io.stdout.write(`${JSON.stringify(result)}\n`)
  if (format === 'text') {
    if (result.subtype === 'success') io.stdout.write(`${result.result ?? ''}\n`)
    else io.stderr.write(`modloop: ${result.subtype}: ${(result.errors ?? []).join('; ') || result.terminal_reason}\n`)
  }
  return result.is_error ? 1 : 0
}

/** One message as `-p` prints it in each output format (`submit --wait` prints a job's the same way). */
export function print(format: string, verbose: boolean, m: SDKMessage, io: { stdout: { write(t: string): unknown }; stderr: { write(t: string): unknown } }): void {
  if (format === 'stream-json') io.stdout.write(`${JSON.stringify(m)}\n`)
  else if (format === 'text' && verbose) {
    const line = renderPretty(m, { color: false })
    if (line) io.stderr.write(line)
  } else if (format === 'text' && m.type === 'system' && m.subtype === 'api_retry') {
    // A retry wait can last minutes: one line per attempt says the run is alive and why it waits.
    const r = m as { error_status?: number | null; retry_delay_ms?: number; attempt?: number; max_retries?: number }
    const what = typeof r.error_status === 'number' ? `API error ${r.error_status}` : 'no response from the API'
    io.stderr.write(`modloop: ${what}, retrying in ${seconds(r.retry_delay_ms ?? 0)} s (attempt ${r.attempt} of ${r.max_retries})\n`)
  }
}

const seconds = (ms: number) => (ms >= 10_000 ? String(Math.round(ms / 1000)) : (ms / 1000).toFixed(1))



function list(values: Values, key: string): string[] | undefined {
  const v = values[key]
  return Array.isArray(v) ? v.flatMap((s) => String(s).split(/[ ,]+/)).filter(Boolean) : undefined
}

// Rules hold spaces inside their parentheses (`Bash(npm test)`), so they split apart from them.
function rules(values: Values, key: string): string[] | undefined {
  const v = values[key]
  return Array.isArray(v) ? splitRuleList(v.map(String)) : undefined
}

function strings(values: Values, key: string): string[] | undefined {
  const v = values[key]
  return Array.isArray(v) ? v.map(String) : undefined
}

const RESUME_NEEDS_ID = '--resume requires a valid session ID or session title when used with --print. Usage: modloop -p --resume <session-id|title>'

export function queryOptions(values: Values, io: { cwd: string; env: Record<string, string | undefined>; stderr: { write(t: string): unknown } }): QueryOptions {
  // `--resume` with no id opens the terminal's picker (which takes it off first); with nobody to pick, as in Claude Code's --print, it is refused.
  if (values.resume === '') throw usageError(RESUME_NEEDS_ID)
  // Claude Code's words (query()'s sessionId says it in the SDK's): a resumed session keeps its own id.
  if (values['session-id'] !== undefined && (values.resume !== undefined || values.continue === true) && values['fork-session'] !== true) {
    throw usageError('--session-id can only be used with --continue or --resume if --fork-session is also specified.')
  }
  const named = values['dangerously-skip-permissions'] === true ? 'bypassPermissions' : str(values, 'permission-mode')
  const mode = named === undefined ? undefined : permissionModeOf(named)
  if (named !== undefined && mode === undefined) throw usageError(`--permission-mode must be one of ${PERMISSION_MODES.join(', ')} (or manual, the same as default)`)
  const env = startModeEnv(values, io.env)
  const restricted = restrictedMode(env)
  refuseBypass(mode === 'bypassPermissions' || values['allow-dangerously-skip-permissions'] === true, restricted, io.env)
  const sdk = sdkFlagOptions(values)
  for (const warning of sdk.warnings) io.stderr.write(`modloop: ${warning}\n`)
  return {
    ...sdk.options,
    // Restricted mode reads none of the person's settings files (--settings and managed ones still apply).
    ...(restricted ? { settingSources: [] } : {}),
    cwd: str(values, 'cwd') ?? io.cwd,
    env: autocompactEnv(str(values, 'autocompact'), env),
    config: str(values, 'config'),
    configLabel: '--config',
    // Safe mode starts without the person's plugins, --plugin-dir ones among them, as Claude Code's does.
    mods: [...(list(values, 'mod') ?? []), ...(safeMode(env) ? [] : pluginDirSpecs(values, str(values, 'cwd') ?? io.cwd, io.env))],
    strictMods: values['strict-mods'] === true,
    model: str(values, 'model'),
    fallbackModel: str(values, 'fallback-model'),
    ...reasoningOptions(values, io.cwd, (line) => io.stderr.write(`modloop: ${line}\n`)),
    maxTurns: num(values, 'max-turns'),
    maxWaitTasksMs: (num(values, 'max-wait-tasks') ?? DEFAULT_MAX_WAIT_TASKS_S) * 1000,
    maxBudgetUsd: num(values, 'max-budget-usd'),
    ...systemPromptFlags(values, io.cwd),
    permissionMode: mode,
    allowedTools: rules(values, 'allowedTools'),
    disallowedTools: rules(values, 'disallowedTools'),
    additionalDirectories: strings(values, 'add-dir'),
    trustWorkspace: values['trust-workspace'] === true ? true : undefined,
    settings: settingsArgs(strings(values, 'settings'), str(values, 'cwd') ?? io.cwd),
    includeHookEvents: values['include-hook-events'] === true ? true : undefined,
    includePartialMessages: values['include-partial-messages'] === true,
    ...extraArgs(values),
    script: str(values, 'script'),
    resume: str(values, 'resume'),
    continue: values.continue === true ? true : undefined,
    forkSession: values['fork-session'] === true ? true : undefined,
    sessionId: str(values, 'session-id'),
    resumeSessionAt: str(values, 'resume-session-at'),
    watchMods: values['watch-mods'] === true ? true : undefined,
    // The SDK asks for file checkpoints (enableFileCheckpointing) through the environment, not a flag; so may anyone.
    enableFileCheckpointing: values.checkpoint === true || /^(1|true)$/i.test(io.env.CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING ?? '') ? true : undefined,
    persistSession: values['no-session-persistence'] === true ? false : undefined,
    mcpServers: mcpConfigServers(strings(values, 'mcp-config') ?? [], io.cwd),
    strictMcpConfig: values['strict-mcp-config'] === true ? true : undefined,
    title: str(values, 'name'),
    disableSlashCommands: values['disable-slash-commands'] === true ? true : undefined,
    agents: agentsFlag(str(values, 'agents'), str(values, 'cwd') ?? io.cwd),
    log: (line) => io.stderr.write(`modloop: ${line}\n`),
  }
}

/**
 * The flags query() takes as the SDK passes them through (`extraArgs`); `--brief` is read by the
 * brief mod, `--init`, `--init-only` and `--maintenance` by shell-hooks. The per-machine sections
 * move out of the default system prompt only: with --system-prompt (or its file) there is none to move them from.
 */
function extraArgs(values: Values): Pick<QueryOptions, 'extraArgs'> {
  const args: Record<string, string | null> = { ...setupArgs(values) }
  if (values['replay-user-messages'] === true) args['replay-user-messages'] = null
  if (values.brief === true) args.brief = null
  if (values['exclude-dynamic-system-prompt-sections'] === true && !replacesSystemPrompt(values)) args['exclude-dynamic-system-prompt-sections'] = null
  const snapshot = values['system-prompt-snapshot']
  if (snapshot !== undefined && snapshot !== 'on' && snapshot !== 'off') throw usageError(`--system-prompt-snapshot must be on or off, not '${String(snapshot)}'`)
  if (snapshot !== undefined) args['system-prompt-snapshot'] = snapshot
  return Object.keys(args).length > 0 ? { extraArgs: args } : {}
}

/**
 * `--settings` values, each checked now: a file that is missing or not a JSON object would
 * otherwise be skipped with a warning, and the run go on without the rules the person named
 * (Claude Code refuses to start). The mods read them again from the same place (the session's cwd).
 */
function settingsArgs(values: string[] | undefined, cwd: string): string[] | undefined {
  for (const value of values ?? []) {
    const { json, where } = readJsonArg('--settings', value, cwd)
    if (typeof json !== 'object' || json === null || Array.isArray(json)) throw usageError(`--settings: ${where} is not a JSON object`)
  }
  return values
}
