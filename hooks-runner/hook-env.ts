import type { HookSource } from './hooks-config.js'
import { subprocessEnv } from './scrub-env.js'

export interface HookEnvContext {
  /** The environment hooks inherit (default: this process's), plus the caller's settings `env` block. */
  base: NodeJS.ProcessEnv
  projectDir: string
  input: Record<string, unknown>
}

/**
 * The environment shared by every hook of one firing (spec §4.3): the inherited environment minus
 * OpenTelemetry exporter variables (and the credentials CLAUDE_CODE_SUBPROCESS_ENV_SCRUB keeps from
 * children), plus the variables hook scripts rely on. Tool data is never put in the environment; it
 * comes on stdin only.
 */
export function baseHookEnv(ctx: HookEnvContext): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(subprocessEnv(ctx.base))) if (!key.startsWith('OTEL_')) env[key] = value
  env.CLAUDE_PROJECT_DIR = ctx.projectDir
  env.MODLOOP_PROJECT_DIR = ctx.projectDir
  // Scripts written for Claude Code test these to know they run as a hook child.
  env.CLAUDECODE = '1'
  env.CLAUDE_CODE_CHILD_SESSION = '1'
  env.CLAUDE_PID = String(process.pid)
  env.MODLOOP_PID = String(process.pid)
  if (typeof ctx.input.session_id === 'string') env.CLAUDE_CODE_SESSION_ID = ctx.input.session_id
  const effort = ctx.input.effort as { level?: unknown } | undefined
  if (typeof effort?.level === 'string') env.CLAUDE_EFFORT = effort.level
  return env
}

/** Adds what one handler needs on top of the shared environment: its plugin variables and env file. */
export function handlerEnv(shared: NodeJS.ProcessEnv, source: HookSource, envFile?: string): NodeJS.ProcessEnv {
  if (!source.pluginRoot && !source.pluginData && !source.pluginOptions && !envFile) return shared
  const env = { ...shared }
  if (source.pluginRoot) env.CLAUDE_PLUGIN_ROOT = source.pluginRoot
  if (source.pluginData) env.CLAUDE_PLUGIN_DATA = source.pluginData
  for (const [key, value] of Object.entries(source.pluginOptions ?? {})) env[`CLAUDE_PLUGIN_OPTION_${key.toUpperCase()}`] = value
  if (envFile) env.CLAUDE_ENV_FILE = envFile
  return env
}
