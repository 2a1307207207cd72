import { AsyncLocalStorage } from 'node:async_hooks'
import { uuid } from '../../core/random.js'
import { smallFastModel } from '../../core/model/aliases.js'
import type { CompleteRequest, CompleteResult, SpawnAnswer, SpawnRequest } from '../../core/mod/contracts.js'
import type { ModApi } from '../../core/mod/api.js'
import { resolveAlias } from '../../core/model/aliases.js'
import type { LlmHook, McpHook } from '../../hooks-runner/index.js'
import { mcpToolName } from '../mcp/tool-name.js'
import { AGENT_HOOK_SYSTEM, PROMPT_HOOK_SYSTEM } from './verdict-prompts.js'

/**
 * Set while a prompt, agent or mcp_tool hook does its work through the session: the model call,
 * the verifier subagent's loop, the MCP tool call. Events raised inside it fire no settings hooks,
 * so a hook cannot set itself off (an agent hook on PreToolUse whose subagent calls a tool).
 */
export const hookWork = new AsyncLocalStorage<true>()

// An agent hook's verifier reads; it never changes the workspace (spec §1.6: Read, Grep, Glob).
const VERIFIER_TOOLS = ['Read', 'Grep', 'Glob']
const VERIFIER_MAX_TURNS = 50

/**
 * Prompt hooks ask the session's model once (`$.model.complete`, the handler's `model` or the small
 * fast one); agent hooks run a read-only verifier subagent (`$.agent.spawn`, up to 50 turns). Both
 * answer with the model's text, from which the runner takes the `{ok, reason}` object.
 */
export function hostLlm($: ModApi): LlmHook {
  const complete = $.model.complete as unknown as (req: CompleteRequest, o: { signal?: AbortSignal }) => Promise<CompleteResult>
  const spawn = $.agent.spawn as unknown as (req: SpawnRequest) => Promise<SpawnAnswer>
  return (request) => hookWork.run(true, async () => {
    if (request.type === 'prompt') {
      const r = await complete({ prompt: request.prompt, system: PROMPT_HOOK_SYSTEM, ...(request.model ? { model: request.model } : {}) }, { signal: request.signal })
      if (!r.isAnswered) throw new Error(`the model gave no answer (${r.reason}${r.error ? `: ${r.error}` : ''})`)
      return r.text
    }
    const started = await spawn({
      prompt: request.prompt, description: `${request.event} agent hook`, subagentType: 'hook-verifier',
      // The subagent takes a model id as it stands, so aliases are resolved here.
      model: request.model ? resolveAlias(request.model, $.env.all()) : smallFastModel($.env.all()), tools: VERIFIER_TOOLS, systemPrompt: AGENT_HOOK_SYSTEM, maxTurns: VERIFIER_MAX_TURNS,
      parentToolUseId: `hook_${uuid()}`, signal: request.signal,
    })
    if ('deny' in started) throw new Error(`the verifier subagent was refused: ${started.deny}`)
    const r = await started.done
    if (r.isError) throw new Error(`the verifier subagent failed: ${r.text || r.terminalReason}`)
    return r.text
  })
}

type ToolCallAnswer = { deny: string } | { isError?: boolean; result?: unknown; text?: string }

/**
 * mcp_tool hooks call the tool the mcp mod registered for the server (`mcp__<server>__<tool>`;
 * `plugin:<p>:<s>` becomes `plugin_<p>_<s>`) through `$.tool.call`, so permission rules still apply;
 * a tool that is not there (the server is not connected) or a denial is the hook's non-blocking error.
 */
export function hostMcp($: ModApi): McpHook {
  const call = $.tool.call as unknown as (args: Record<string, unknown>) => Promise<ToolCallAnswer>
  return (request) => hookWork.run(true, async () => {
    const tool = mcpToolName(request.server, request.tool)
    const r = await call({ ...request.input, tool }).catch((err: Error) => {
      throw new Error(`${tool} cannot be called (is MCP server "${request.server}" connected?): ${err.message}`)
    })
    if ('deny' in r) throw new Error(r.deny)
    const text = typeof r.text === 'string' ? r.text : typeof r.result === 'string' ? r.result : JSON.stringify(r.result ?? '')
    return { text, isError: r.isError === true }
  })
}
