import { mkdir } from 'node:fs/promises'
import type { HookEventName } from './events.js'
import { handlerEnv } from './hook-env.js'
import type { ResolvedHandler } from './hooks-config.js'
import { failedRaw } from './raw-result.js'
import { runCommand, type CommandOutcome } from './run-command.js'
import { runHttp } from './run-http.js'
import { runLlm, type LlmHook } from './run-llm.js'
import { runMcp, type McpHook } from './run-mcp.js'
import { runCallback } from './run-callback.js'
import type { SpareSh } from './spare-sh.js'

export interface HandlerContext {
  event: HookEventName
  input: Record<string, unknown>
  /** The input serialised once per firing: compact JSON. */
  inputJson: string
  cwd: string
  fallbackDirs: readonly string[]
  sharedEnv: NodeJS.ProcessEnv
  envFile?: string
  timeoutMs: number
  signal?: AbortSignal
  killGraceMs: number
  pipeGraceMs: number
  detectAsync: boolean
  llm?: LlmHook
  mcp?: McpHook
  fetch: typeof fetch
  httpEnvBound?: readonly string[]
  spare?: SpareSh
}

/** Runs one handler of any type and reports its raw result; the caller gives it meaning. */
export async function runHandler(h: ResolvedHandler, ctx: HandlerContext): Promise<CommandOutcome> {
  const c = h.config
  switch (c.type) {
    case 'command':
      // A plugin's data directory exists by the time a hook of the plugin may write to it.
      if (h.source.pluginData) await mkdir(h.source.pluginData, { recursive: true }).catch(() => undefined)
      return runCommand(c, h.source, {
        // A trailing newline helps scripts that `read -r` their input.
        stdin: `${ctx.inputJson}\n`,
        cwd: ctx.cwd, fallbackDirs: ctx.fallbackDirs, env: handlerEnv(ctx.sharedEnv, h.source, ctx.envFile),
        timeoutMs: ctx.timeoutMs, signal: ctx.signal, killGraceMs: ctx.killGraceMs, pipeGraceMs: ctx.pipeGraceMs,
        detectAsync: ctx.detectAsync, spare: ctx.spare,
      })
    case 'http':
      return { raw: await runHttp(c, { body: ctx.inputJson, env: ctx.sharedEnv, envBound: ctx.httpEnvBound, timeoutMs: ctx.timeoutMs, signal: ctx.signal, fetch: ctx.fetch }) }
    case 'mcp_tool':
      if (!ctx.mcp) return { raw: failedRaw('failed', 'mcp_tool hooks are not supported by this host (no mcp client given to the runner)', 'HOOKS_ERR_UNSUPPORTED') }
      return { raw: await runMcp(c, ctx.mcp, { input: ctx.input, timeoutMs: ctx.timeoutMs, signal: ctx.signal }) }
    case 'callback':
      return { raw: await runCallback(c, { input: ctx.input, timeoutMs: ctx.timeoutMs, signal: ctx.signal }) }
    case 'prompt':
    case 'agent':
      if (!ctx.llm) return { raw: failedRaw('failed', `${c.type} hooks are not supported by this host (no model given to the runner)`, 'HOOKS_ERR_UNSUPPORTED') }
      return {
        raw: await runLlm(c, ctx.llm, {
          event: ctx.event, input: ctx.input, inputJson: ctx.inputJson, timeoutMs: ctx.timeoutMs, signal: ctx.signal, name: h.name, source: h.source,
        }),
      }
  }
}
