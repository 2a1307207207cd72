import { z } from 'zod'
import type { AgentHandler, PromptHandler } from './config-schema.js'
import { describeCause } from './errors.js'
import type { HookEventName } from './events.js'
import type { HookSource } from './hooks-config.js'
import { onFirstUse } from './on-first-use.js'
import { failedRaw, type RawResult } from './raw-result.js'
import { formatSeconds } from './run-command.js'

/** What a prompt or agent hook asks of the host's model. */
export interface LlmHookRequest {
  type: 'prompt' | 'agent'
  /** The handler's prompt with `$ARGUMENTS` replaced by (or followed by) the hook input JSON. */
  prompt: string
  /** The handler's model; absent means the host's fast default. */
  model?: string
  event: HookEventName
  input: Record<string, unknown>
  /** Aborted on timeout or when the caller cancels. */
  signal: AbortSignal
  timeoutMs: number
  hook: { name: string; source: HookSource }
}

/** The reply: the model's text (JSON is extracted from fences and prose) or an already-parsed verdict. */
export type LlmHookReply = string | { ok: boolean; reason?: string; impossible?: boolean }

/** The host's model call for prompt hooks, and its subagent run (up to 50 turns) for agent hooks. */
export type LlmHook = (request: LlmHookRequest) => Promise<LlmHookReply>

// Built on first use: only a prompt or agent hook reads a verdict.
const verdictSchema = onFirstUse(() => z.object({ ok: z.boolean(), reason: z.string().optional(), impossible: z.boolean().optional() }))

/**
 * `$ARGUMENTS` → the input JSON; `\$` → a literal `$`; no placeholder → the JSON is appended under
 * an `ARGUMENTS:` label, as Claude Code appends it, so the model knows what the object is.
 */
export function expandPrompt(prompt: string, inputJson: string): string {
  let used = false
  const out = prompt.replace(/\\\$|\$ARGUMENTS/g, (m) => {
    if (m === '\\$') return '$'
    used = true
    return inputJson
  })
  return used ? out : `${out}\n\nARGUMENTS: ${inputJson}`
}

/** The first JSON object in a reply: bare, fenced, or wrapped in prose (R13). */
export function extractJsonObject(text: string): unknown {
  const candidates = [text.trim(), ...[...text.matchAll(/```(?:json)?\s*([\s\S]*?)```/g)].map((m) => m[1]!.trim())]
  for (const c of candidates) {
    try {
      return JSON.parse(c)
    } catch {
      // Not bare JSON; try the next candidate.
    }
  }
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    const end = matchingBrace(text, start)
    if (end === -1) continue
    try {
      return JSON.parse(text.slice(start, end + 1))
    } catch {
      // A brace inside prose; keep looking.
    }
  }
  return undefined
}

function matchingBrace(text: string, start: number): number {
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const ch = text[i]
    if (inString) {
      if (ch === '\\') i++
      else if (ch === '"') inString = false
    } else if (ch === '"') inString = true
    else if (ch === '{') depth++
    else if (ch === '}' && --depth === 0) return i
  }
  return -1
}

export async function runLlm(
  h: PromptHandler | AgentHandler,
  llm: LlmHook,
  ctx: { event: HookEventName; input: Record<string, unknown>; inputJson: string; timeoutMs: number; signal?: AbortSignal; name: string; source: HookSource },
): Promise<RawResult> {
  const started = performance.now()
  const timeout = new AbortController()
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout.signal]) : timeout.signal
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      timeout.abort()
      resolve('timeout')
    }, ctx.timeoutMs)
  })
  const cancelled = new Promise<'cancelled'>((resolve) => signal.addEventListener('abort', () => resolve('cancelled'), { once: true }))
  try {
    const request: LlmHookRequest = {
      type: h.type, prompt: expandPrompt(h.prompt, ctx.inputJson), model: h.model, event: ctx.event, input: ctx.input,
      signal, timeoutMs: ctx.timeoutMs, hook: { name: ctx.name, source: ctx.source },
    }
    const reply = await Promise.race([llm(request), expired, cancelled])
    const durationMs = performance.now() - started
    // The timer's abort settles `cancelled` before `expired`, so a timeout is told by its own signal.
    if (reply === 'timeout' || timeout.signal.aborted) return failedRaw('timeout', `timed out after ${formatSeconds(ctx.timeoutMs)}`, 'HOOKS_ERR_TIMEOUT', durationMs)
    if (reply === 'cancelled') return failedRaw('cancelled', 'Hook cancelled', 'HOOKS_ERR_CANCELLED', durationMs)
    const text = typeof reply === 'string' ? reply : JSON.stringify(reply)
    const verdict = verdictSchema().safeParse(typeof reply === 'string' ? extractJsonObject(reply) : reply)
    if (!verdict.success) {
      return { ...failedRaw('failed', `the model reply is not {"ok": boolean, "reason"?: string} JSON: ${text.slice(0, 200)}`, 'HOOKS_ERR_LLM', durationMs), stdout: text }
    }
    return { status: 'done', exitCode: 0, stdout: text, stderr: '', durationMs, verdict: verdict.data }
  } catch (err) {
    return failedRaw('failed', `the model call failed: ${describeCause(err)}`, 'HOOKS_ERR_LLM', performance.now() - started)
  } finally {
    clearTimeout(timer)
  }
}
