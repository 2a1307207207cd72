/**
 * The hooks-runner's error and warning catalogs. Callers and tests match on these codes, never on
 * wording; every error names the settings file, the key path or the hook it concerns.
 */
export const HOOKS_ERROR_CODES = {
  HOOKS_ERR_SETTINGS_READ: 'a settings file could not be read',
  HOOKS_ERR_SETTINGS_JSON: 'a settings file is not valid JSON',
  HOOKS_ERR_CONFIG: 'a hooks entry does not fit the schema',
  HOOKS_ERR_LAUNCH: 'a hook could not be started',
  HOOKS_ERR_TIMEOUT: 'a hook overran its timeout',
  HOOKS_ERR_CANCELLED: 'a hook was cancelled',
  HOOKS_ERR_EXIT: 'a hook exited with a non-blocking error status',
  HOOKS_ERR_OUTPUT: "a hook's JSON output does not fit the schema",
  HOOKS_ERR_HTTP: 'an http hook failed or answered with something other than a JSON object',
  HOOKS_ERR_LLM: "a prompt or agent hook's model reply could not be used",
  HOOKS_ERR_MCP: 'an mcp_tool hook failed',
  HOOKS_ERR_UNSUPPORTED: 'the host gave the runner no way to run this kind of hook',
} as const

export type HooksErrorCode = keyof typeof HOOKS_ERROR_CODES

export const HOOKS_WARNING_CODES = {
  HOOKS_WARN_UNKNOWN_FIELD: 'a hooks entry carries a field the runner does not know; it is ignored',
  HOOKS_WARN_UNKNOWN_EVENT: 'a hooks entry names an event that does not exist; it is skipped',
  HOOKS_WARN_INVALID_REGEX: 'a matcher is neither a name list nor a valid regular expression; it matches nothing',
  HOOKS_WARN_HANDLER_TYPE: 'a handler type is not accepted on this event; it is skipped',
  HOOKS_WARN_IF_IGNORED: 'a handler with `if` is on an event that is not a tool event; it never runs',
  HOOKS_WARN_IF_UNSUPPORTED: 'an `if` rule form is not understood; the hook runs (fails open)',
  HOOKS_WARN_URL_BLOCKED: 'an http hook URL is not in allowedHttpHookUrls; it is skipped',
  HOOKS_WARN_WINDOWS_PATH: 'a shell-form command holds a backslash path that the shell will mangle',
  HOOKS_WARN_EXEC_NAME: 'an exec-form command is a bare name with whitespace; the spawn will fail',
  HOOKS_WARN_NOT_LOADED: 'a settings file exists where it is not read',
  HOOKS_WARN_DISABLED: 'hooks of some sources are switched off by a settings key',
  HOOKS_WARN_BANNER: 'a hook printed text before its JSON output; the text was ignored',
  HOOKS_WARN_PIPES_HELD: 'a hook left a process running that holds its output; it was not waited for, and is ended with the session',
  HOOKS_WARN_OUTPUT_CUT: "a hook's stdout ran past the runner's cap; only its start was kept",
  HOOKS_WARN_NOT_JSON: 'a hook printed text that starts with `{` but is not valid JSON; it was taken as plain text',
  HOOKS_WARN_EVENT_NAME: 'hookSpecificOutput.hookEventName was missing; the event was inferred',
  HOOKS_WARN_OUTPUT_FIELD: "a hook's JSON output carries a field the event does not use",
  HOOKS_WARN_CONFLICT: 'several hooks rewrote the same value; the last in settings order won',
  HOOKS_WARN_EMPTY_BLOCK: 'a Stop or SubagentStop hook blocked without a reason; the turn goes on with "Blocked by hook" as the feedback',
  HOOKS_WARN_TERMINAL_SEQUENCE: 'a terminalSequence holds escape codes outside the allowed set; it was dropped',
} as const

export type HooksWarningCode = keyof typeof HOOKS_WARNING_CODES

/** Where a problem was found: a settings file and a key path, and/or a hook by display name. */
export interface HooksProblemDetails {
  file?: string
  path?: string
  hook?: string
  event?: string
  cause?: unknown
}

export class HooksError extends Error {
  readonly code: HooksErrorCode
  readonly file?: string
  readonly path?: string
  readonly hook?: string
  readonly event?: string

  constructor(code: HooksErrorCode, message: string, details: HooksProblemDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause })
    this.name = 'HooksError'
    this.code = code
    this.file = details.file
    this.path = details.path
    this.hook = details.hook
    this.event = details.event
  }

  toJSON() {
    const { code, message, file, path, hook, event } = this
    return { code, message, file, path, hook, event }
  }
}

export interface HooksWarning {
  code: HooksWarningCode
  message: string
  file?: string
  path?: string
  hook?: string
}

export function isHooksError(err: unknown, code?: HooksErrorCode): err is HooksError {
  return err instanceof HooksError && (code === undefined || err.code === code)
}

/** A one-line description of any thrown value, for messages that name a cause. */
export function describeCause(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code
    return code ? `${err.message} (${code})` : err.message
  }
  return String(err)
}
