import type { SessionStartInput } from '../events/types.js'
import type { EffortLevel, ThinkingDisplay, ThinkingOption } from '../model/capabilities.js'
import type { CanUseTool } from '../tools/pipeline.js'

/**
 * A session's options, as far as core acts on them. query() takes many more (runtime/options.ts
 * adds them to this interface by declaration merging, as capabilities are declared), so a session
 * carries its caller's options whole while core names only its own.
 */
export interface SessionOptions {
  model?: string
  fallbackModel?: string
  maxTurns?: number
  maxBudgetUsd?: number
  cwd?: string
  abortController?: AbortController
  includePartialMessages?: boolean
  /** Environment for this query (process.env when absent). */
  env?: Record<string, string | undefined>
  canUseTool?: CanUseTool
  /** A fixed id (a UUID) for a new session; with resume or continue only together with forkSession. */
  sessionId?: string
  /**
   * The Agent SDK's pass-through CLI flags (name → value, null for a bare flag). modloop honours
   * `replay-user-messages`: each prompt's user message is yielded back with its uuid (`isReplay`);
   * mods read `exclude-dynamic-system-prompt-sections` and `system-prompt-snapshot` (runtime/launch-options.ts).
   */
  extraArgs?: Record<string, string | null>
  maxTokens?: number
  /** Reasoning effort, sent as `output_config.effort`; clamped to what the model accepts. */
  effort?: EffortLevel
  /** Thinking mode, clamped to what the model accepts; unset leaves the model's default. */
  thinking?: ThinkingOption
  /** What the API sends of the thinking, when `thinking` does not say (`--thinking-display`). */
  thinkingDisplay?: ThinkingDisplay
  /** Where load errors and mod logs go (default: stderr for warnings and errors). */
  log?: (line: string) => void
  /** What session.start tells mods drives the session: `'terminal'` under the interactive terminal; absent (null) for `-p` and SDK use. */
  surface?: 'terminal'
  /** Whether a person answers at the keyboard (session.start's isInteractive); default: true exactly when `surface` is set. */
  isInteractive?: boolean
  /** No slash commands: `/name` prompts go to the model as typed, and mods' commands are not registered (`--disable-slash-commands`). */
  disableSlashCommands?: boolean
}

// Claude Code's default for an API key.
export const DEFAULT_MODEL = 'claude-opus-5-5'

/** session.start's `surface`, `isInteractive` and `canAsk`, from the session's options. */
export function surfaceFields(options: SessionOptions): Pick<SessionStartInput, 'surface' | 'isInteractive' | 'canAsk'> {
  return { surface: options.surface ?? null, isInteractive: options.isInteractive ?? options.surface !== undefined, ...(options.canUseTool ? { canAsk: true } : {}) }
}
