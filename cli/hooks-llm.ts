import type { LlmHook } from '../hooks-runner/index.js'
import { resolveAlias, smallFastModel } from '../core/model/aliases.js'
import type { Model } from '../core/model/types.js'
import { PROMPT_HOOK_SYSTEM } from '../mods/shell-hooks/verdict-prompts.js'

/**
 * Prompt and agent hooks for `modloop hooks test`, which runs no agent: one Messages API call (the
 * handler's `model`, else the small fast one) with a prompt hook's system prompt. An agent hook gets
 * the same single call without tools — a verdict from the input alone, as no subagent runs here.
 */
export function cliLlm(env: Record<string, string | undefined>): LlmHook {
  let model: Model | undefined
  return async (request) => {
    if (!model) {
      const { createAnthropicModel } = await import('../runtime/model/anthropic.js')
      const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v))
      model = createAnthropicModel({
        apiKey: env.ANTHROPIC_API_KEY, baseURL: env.ANTHROPIC_BASE_URL,
        retryBaseMs: num(env.MODLOOP_RETRY_BASE_MS), maxRetries: num(env.MODLOOP_MAX_RETRIES ?? env.CLAUDE_CODE_MAX_RETRIES),
      })
    }
    let text = ''
    const events = model.stream({
      model: request.model ? resolveAlias(request.model, env) : smallFastModel(env), max_tokens: 1024,
      system: PROMPT_HOOK_SYSTEM,
      messages: [{ role: 'user', content: request.prompt }],
    }, { signal: request.signal })
    for await (const ev of events) if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') text += ev.delta.text
    return text
  }
}
