import { classifyStdout, stripAnsi } from './classify-stdout.js'
import type { HooksErrorCode, HooksWarning } from './errors.js'
import { eventSpec, type HookEventName } from './events.js'
import type { ResolvedHandler } from './hooks-config.js'
import { effectOfOutput, effectOfVerdict, emptyStopBlock } from './output-effect.js'
import { checkOutput } from './output-schema.js'
import type { RawResult } from './raw-result.js'
import { sizeOf } from './size-of.js'
import type { HookEffect, HookOutcome, HookRecord } from './result-types.js'

const firstLine = (s: string) => s.trim().split('\n')[0] ?? ''

/**
 * Gives a handler's raw result its meaning for the event (spec §3.1–3.3, §3.8–3.9): exit 0 applies
 * the JSON; exit 2 blocks where the event can block, whatever the JSON says; any other status is a
 * non-blocking error unless stdout is schema-valid JSON. Failures fail open, except where the
 * handler says `onError: "deny"` or the event treats a timeout (of any handler, or of an SDK
 * callback) as a block.
 */
export function interpretResult(event: HookEventName, h: ResolvedHandler, raw: RawResult, warnings: HooksWarning[]): HookRecord {
  const spec = eventSpec(event)
  const record: HookRecord = {
    id: h.id, event, type: h.config.type, name: h.name, source: h.source, path: h.path,
    outcome: 'success', exitCode: raw.exitCode, signal: raw.signal, httpStatus: raw.httpStatus, pid: raw.pid,
    stdout: raw.stdout, stderr: raw.stderr, durationMs: raw.durationMs, effect: { specific: {} },
  }
  const fail = (outcome: HookOutcome, message: string, errorCode: HooksErrorCode, closedAnyway = false): HookRecord => {
    record.outcome = outcome
    record.message = message
    record.errorCode = errorCode
    // An SDK callback that never answers may be a host that cannot be reached: a gate it guards stays shut (spec settings-hooks §4.4).
    const timeoutBlocks = spec.timeoutBlocks === true || (h.config.type === 'callback' && spec.callbackTimeoutBlocks === true)
    const closed = closedAnyway || h.config.onError === 'deny' || (outcome === 'timeout' && timeoutBlocks)
    const why = `${h.name}: ${message} (the hook fails closed)`
    if (closed && outcome !== 'cancelled' && spec.exit2 === 'block') {
      record.failedClosed = true
      record.effect = { specific: {}, block: why, ...(event === 'PreToolUse' || event === 'PreModelSwitch' ? { permission: 'deny' as const } : {}) }
    } else if (closed && outcome !== 'cancelled' && event === 'PermissionRequest') {
      // PermissionRequest cannot be blocked by exit 2, but it is a gate: failing closed answers deny.
      record.failedClosed = true
      record.effect = { specific: { decision: { behavior: 'deny', message: why } } }
    }
    return record
  }

  if (raw.pipesHeld) {
    warnings.push({
      code: 'HOOKS_WARN_PIPES_HELD', hook: h.name, file: h.source.file,
      message: `${h.name}: a process it left running still holds its stdout or stderr; the hook was not waited for, and that process is ended with the session (to keep it running, redirect its output: \`cmd >/dev/null 2>&1 &\`)`,
    })
  }
  if (raw.status === 'cancelled') return fail('cancelled', raw.message ?? 'Hook cancelled', 'HOOKS_ERR_CANCELLED')
  if (raw.status === 'timeout') return fail('timeout', raw.message ?? 'timed out', 'HOOKS_ERR_TIMEOUT')
  if (raw.status === 'launch_error') return fail('launch_error', raw.message ?? 'could not be started', 'HOOKS_ERR_LAUNCH')
  if (raw.status === 'failed') return fail('error', raw.message ?? 'failed', raw.errorCode ?? 'HOOKS_ERR_EXIT')
  if (raw.verdict) {
    record.effect = effectOfVerdict(event, h, raw.verdict)
    if (record.effect.block !== undefined || record.effect.stop) record.outcome = 'blocking'
    return record
  }

  // A signal death (null status) counts as status 1: a non-blocking error.
  const code = raw.exitCode ?? 1
  if (raw.shellForm && (code === 126 || code === 127) && raw.stdout.trim() === '') {
    return fail('launch_error', `could not be started (status ${code}): ${firstLine(raw.stderr) || 'command not found'}`, 'HOOKS_ERR_LAUNCH')
  }
  if (event === 'WorktreeCreate' && h.config.type === 'command') return worktreeCreate(record, raw, code, fail)

  const blocksOn2 = code === 2 && spec.exit2 === 'block'
  // A decision too large to read whole is never taken as plain text: where the event is a gate,
  // it is refused as a deny would be; where it is not, what was kept is used and the cut is said.
  if (raw.stdoutCut && code === 0) {
    const message = `printed ${sizeOf(raw.stdoutCut.total)} on stdout, past the ${sizeOf(raw.stdoutCut.kept)} a decision is read from, so its decision cannot be read`
    if (spec.exit2 === 'block' || event === 'PermissionRequest') return fail('error', message, 'HOOKS_ERR_OUTPUT', true)
    warnings.push({ code: 'HOOKS_WARN_OUTPUT_CUT', message: `${h.name}: ${message}; only the first ${sizeOf(raw.stdoutCut.kept)} were kept`, hook: h.name, file: h.source.file })
  }
  const stdout = classifyStdout(raw.stdout)
  if (stdout.kind === 'json') {
    if (stdout.skipped > 0) {
      warnings.push({ code: 'HOOKS_WARN_BANNER', message: `${h.name}: ${stdout.skipped} line(s) printed before the JSON output were ignored (a shell profile echoing text?)`, hook: h.name })
    }
    const checked = checkOutput(event, stdout.value, h.name)
    if (checked.ok) {
      warnings.push(...checked.warnings)
      record.output = checked.output
      // Exit 2 leaves Elicitation's answer unread: the elicitation is denied.
      const output = code === 2 && (event === 'Elicitation' || event === 'ElicitationResult') ? { ...checked.output, specific: {} } : checked.output
      record.effect = effectOfOutput(event, output)
      if (!blocksOn2 && emptyStopBlock(event, output)) {
        warnings.push({ code: 'HOOKS_WARN_EMPTY_BLOCK', message: `${h.name}: ${event} decision "block" without a reason; the turn goes on with "Blocked by hook" as the feedback`, hook: h.name })
      }
      if (blocksOn2) addBlock(record.effect, checked.output.reason ?? exit2Reason(h, raw), event)
      markBlocking(record)
      return record
    }
    if (!blocksOn2) return fail('error', `${checked.message} (source: ${h.source.file})`, 'HOOKS_ERR_OUTPUT')
    warnings.push({ code: 'HOOKS_WARN_OUTPUT_FIELD', message: `${h.name}: ${checked.message}; exit 2 still blocks`, hook: h.name })
  }
  if (stdout.kind === 'text' && stdout.brokenJson !== undefined) {
    warnings.push({
      code: 'HOOKS_WARN_NOT_JSON', hook: h.name, file: h.source.file,
      message: `${h.name} (${h.source.file}): stdout starts with "{" but is not valid JSON (${stdout.brokenJson}); it is taken as plain text`,
    })
  }
  if (raw.bodyNotJson) return fail('error', `answered with a body that is not a JSON object: ${firstLine(raw.stdout).slice(0, 200)}`, 'HOOKS_ERR_HTTP')

  if (code === 0) {
    if (stdout.kind === 'text' && spec.stdoutContext) {
      record.effect.context = raw.stdoutCut ? `${stdout.text}\n[cut: the hook printed ${sizeOf(raw.stdoutCut.total)}; only the first ${sizeOf(raw.stdoutCut.kept)} were kept]` : stdout.text
      record.effect.contextIsStdout = true
    }
    return record
  }
  if (blocksOn2) {
    addBlock(record.effect, exit2Reason(h, raw), event)
    record.outcome = 'blocking'
    return record
  }
  // Where the event ignores exit 2 (Notification, PermissionDenied, PermissionRequest, StopFailure, …:
  // spec §2.2, §3.3) it is no error either: nothing is shown or blocked; the record keeps its stderr.
  if (code === 2 && spec.exit2 === 'ignored') {
    record.message = `exit 2 is ignored on ${event}`
    return record
  }
  const why = raw.signal ? `killed by ${raw.signal}` : `Failed with non-blocking status code ${code}`
  return fail('error', `${why}: ${firstLine(raw.stderr) || 'No stderr output'}`, 'HOOKS_ERR_EXIT')
}

/** Claude Code's blocking-error text: a command hook's exit 2 reads `[<command>]: <stderr>`, so the model and the user know which hook spoke. */
function exit2Reason(h: ResolvedHandler, raw: RawResult): string {
  const stderr = raw.stderr.trim() === '' ? 'No stderr output' : raw.stderr
  return h.config.type === 'command' ? `[${h.name}]: ${stderr}` : raw.stderr.trim() || `${h.name} exited with status 2 (no stderr output)`
}

function addBlock(effect: HookEffect, reason: string, event: HookEventName): void {
  effect.block = reason
  if (event === 'PreToolUse' || event === 'PreModelSwitch') {
    effect.permission = 'deny'
    effect.permissionReason = reason
  }
}

function markBlocking(record: HookRecord): void {
  if (record.effect.block !== undefined || record.effect.stop) record.outcome = 'blocking'
}

/** WorktreeCreate command hooks print the path as their last non-empty stdout line; any failure fails creation. */
function worktreeCreate(
  record: HookRecord,
  raw: RawResult,
  code: number,
  fail: (outcome: HookOutcome, message: string, errorCode: HooksErrorCode) => HookRecord,
): HookRecord {
  const path = stripAnsi(raw.stdout).split(/\r?\n/).map((l) => l.trim()).filter(Boolean).at(-1)
  if (code === 0 && path) {
    record.effect.specific = { worktreePath: path }
    return record
  }
  const reason = code === 0 ? 'printed no worktree path' : `exited with status ${code}: ${firstLine(raw.stderr) || 'No stderr output'}`
  fail(code === 0 ? 'error' : 'blocking', reason, 'HOOKS_ERR_EXIT')
  record.effect = { specific: {}, block: `${record.name}: ${reason}` }
  record.outcome = 'blocking'
  return record
}
