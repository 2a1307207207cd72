/**
 * The error catalog: every failure modloop reports carries a stable code plus the mod, event,
 * file and cause it concerns, so tools and tests match on codes, never on wording.
 */
export const ERROR_CODES = {
  MODLOOP_ERR_CONFIG: 'the config file is invalid',
  MODLOOP_ERR_CONFIG_KEY: 'the config has an unknown key',
  MODLOOP_ERR_EXTENDS: 'a distribution named in extends could not be loaded',
  MODLOOP_ERR_UNTRUSTED: "a project module was not imported: the folder is not trusted",
  MODLOOP_ERR_MOD_RESOLVE: 'a mod could not be found',
  MODLOOP_ERR_MOD_IMPORT: 'a mod module failed to import',
  MODLOOP_ERR_MOD_SHAPE: 'a mod module exports neither register nor a defineMod default',
  MODLOOP_ERR_MOD_OPTIONS: "a mod's options do not fit its schema",
  MODLOOP_ERR_MOD_REGISTER: "a mod's register threw",
  MODLOOP_ERR_MOD_REGISTER_TIMEOUT: "a mod's register did not return within its budget",
  MODLOOP_ERR_MOD_DUPLICATE: 'two mods have the same name',
  MODLOOP_ERR_MOD_DEPENDENCY: 'a mod depends on a mod that is not loaded',
  MODLOOP_ERR_MOD_CYCLE: 'mods depend on each other in a cycle',
  MODLOOP_ERR_CAPABILITY: 'a capability was provided or used against what the mods declare',
  MODLOOP_ERR_CAPABILITY_MISSING: 'a mod or the session needs a capability no loaded mod provides',
  MODLOOP_ERR_PLUGIN: 'a plugin directory is malformed',
  MODLOOP_ERR_ORDER: 'handler ordering constraints cannot all hold',
  MODLOOP_ERR_UNKNOWN_EVENT: 'no such event in the catalog',
  MODLOOP_ERR_MATCHER: 'a matcher is malformed',
  MODLOOP_ERR_HANDLER_THROW: 'a handler threw',
  MODLOOP_ERR_HANDLER_TIMEOUT: 'a handler overran its time budget',
  MODLOOP_ERR_HANDLER_SHAPE: 'a handler returned a result of the wrong shape',
  MODLOOP_ERR_HANDLER_KIND: 'a handler did something its event does not allow',
  MODLOOP_ERR_NEXT: 'next was called wrongly',
  MODLOOP_ERR_STRAY: 'an error no handler awaited (a rejected promise or a throw in a timer) reached the process',
  MODLOOP_ERR_STALLED: 'the run could make no more progress: nothing was left running and no result came',
  MODLOOP_ERR_REGISTRATION: 'a registration was made wrongly',
  MODLOOP_ERR_NOT_BOUND: 'a $ capability was used before the mod was bound',
  MODLOOP_ERR_NO_PROVIDER: 'no part of this host provides that $ capability',
  MODLOOP_ERR_UNSUPPORTED: 'not supported by modloop',
  MODLOOP_ERR_DISPOSED: 'the mod was disposed',
  MODLOOP_ERR_NOT_RUN: 'a prompt or command a mod submitted never ran: its turn ended before it did, or the session ended first',
  MODLOOP_ERR_USAGE: 'bad command-line usage',
  MODLOOP_ERR_SCRIPT: 'a model script is malformed',
  MODLOOP_ERR_MODEL: 'the model request failed',
  MODLOOP_ERR_TOOL: 'a tool failed',
  MODLOOP_ERR_SESSION: 'a session could not be found or loaded',
  MODLOOP_ERR_SESSION_LOCKED: 'another process is writing that session',
  MODLOOP_ERR_STORE: 'the session store or the job queue (a database) could not be reached or refused a request',
  MODLOOP_ERR_JOB: 'a job could not be submitted, run or found',
  MODLOOP_ERR_WORKTREE: 'a git worktree could not be made, entered or removed',
  MODLOOP_ERR_ROOT_BYPASS: 'skipping permission checks was refused: the process runs as root',
  MODLOOP_ERR_RESTRICTED_BYPASS: 'skipping permission checks was refused: restricted mode is on',
} as const

export type ErrorCode = keyof typeof ERROR_CODES

export interface ErrorDetails {
  mod?: string
  event?: string
  file?: string
  field?: string
  stage?: string
  /** The `$` method concerned, as `ns.name` (e.g. `store.get`). */
  method?: string
  cause?: unknown
}

export class ModloopError extends Error {
  readonly code: ErrorCode
  readonly mod?: string
  readonly event?: string
  readonly file?: string
  readonly field?: string
  readonly stage?: string
  readonly method?: string

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause })
    this.name = 'ModloopError'
    this.code = code
    this.mod = details.mod
    this.event = details.event
    this.file = details.file
    this.field = details.field
    this.stage = details.stage
    this.method = details.method
  }

  toJSON() {
    const { code, message, mod, event, file, field, stage, method } = this
    return { code, message, mod, event, file, field, stage, method }
  }
}

export function isModloopError(err: unknown, code?: ErrorCode): err is ModloopError {
  return err instanceof ModloopError && (code === undefined || err.code === code)
}

/** A one-line description of any thrown value, for messages that name a cause. */
export function describeError(err: unknown): string {
  // The message says what went wrong; the class name only when there is no message.
  if (err instanceof Error) return err.message || err.name
  return String(err)
}

/**
 * As describeError, with the innermost cause after it when the message does not already say it:
 * a failed connection's message ("Connection error.", wrapping fetch's "fetch failed") says
 * nothing of why, the system's error at the bottom does ("connect ECONNREFUSED 127.0.0.1:8080").
 */
export function describeWithCause(err: unknown): string {
  const message = describeError(err)
  const cause = innermostCause(err)
  if (cause === undefined) return message
  const why = describeError(cause)
  return why && !message.includes(why) ? `${message} (${why})` : message
}

/** The last error of `err`'s cause chain; undefined when it has no cause. */
export function innermostCause(err: unknown): unknown {
  let inner: unknown
  for (let at = err; at instanceof Error && at.cause !== undefined && at.cause !== at; at = at.cause) inner = at.cause
  return inner
}
