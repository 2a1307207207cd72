import type { ContentBlock, MessageParam, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages'
import type { Usage } from '../core/events/types.js'
import { ModelApiError, type ModelRequest, type SystemBlock } from '../core/model/types.js'
import { zeroUsage } from '../core/loop/messages.js'
import type { Session } from '../core/loop/session.js'
import { resolveAlias, smallFastModel } from '../core/model/aliases.js'
import { outputTokenCap } from '../core/model/pricing.js'
import { clampEffort } from '../core/model/capabilities.js'
import { readUsage } from '../core/model/usage.js'
import { loopRequest, requestFor } from '../core/loop/request.js'
import { identityText } from '../core/loop/prompt.js'
import { withSessionReasoning } from '../core/loop/step.js'
import type { CompleteBlock, CompleteRequest, CompleteResult, ForkRequest, ForkResult } from '../core/mod/contracts.js'

/**
 * `$.model.complete`: one completion through the session's model, with no tools but the API's own
 * (its web search), its system prompt the loop's identity then `system`; its cost counts in the session's.
 */
export async function complete(session: Session, req: CompleteRequest, signal?: AbortSignal): Promise<CompleteResult> {
  const model = req.model ? resolveAlias(req.model, session.env) : smallFastModel(session.env)
  const effort = clampEffort(model, req.effort)
  // A timeout ends the request as the caller's signal does: the answer is `aborted`.
  const timeout = req.timeoutMs === undefined ? undefined : AbortSignal.timeout(req.timeoutMs)
  const ending = timeout && signal ? AbortSignal.any([signal, timeout]) : timeout ?? signal
  const given = req.system ? textBlocks(req.system) : []
  // The main loop's identity opens the prompt (spec mods §4); the blank line that joins it to the
  // caller's blocks ends it, as between the loop's own sections. It carries no mark: the caller's
  // four breakpoints stay theirs.
  const identity = await identityText(session.root)
  const system: SystemBlock[] = identity ? [{ type: 'text', text: given.length > 0 ? `${identity}\n\n` : identity }, ...given] : given
  return answerOf(session, model, ending, () => requestFor(session, {
    // Never past the model's own output cap: the API refuses such a request outright (a 4,096-token model asked for a summary of 8,192).
    model, max_tokens: Math.min(req.maxTokens ?? 1024, outputTokenCap(model)),
    ...(system.length > 0 ? { system } : {}),
    messages: [{ role: 'user', content: typeof req.prompt === 'string' ? req.prompt : textBlocks(req.prompt) }],
    ...(req.serverTools?.length ? { tools: req.serverTools } : {}),
    ...(effort ? { output_config: { effort } } : {}),
  }, [...(identity ? [{ id: 'intro', scope: 'session' as const }] : []), ...given.map((_b, i) => ({ id: i === 0 ? 'complete' : `complete.${i}`, scope: 'session' as const }))], undefined, 'complete'))
}

/**
 * A text, or the caller's blocks (checked by checkComplete), as the API's text blocks: `cache`
 * becomes a 5-minute breakpoint, which the prompt-cache mod turns off or lengthens as its settings say.
 */
function textBlocks(given: string | CompleteBlock[]): SystemBlock[] {
  if (typeof given === 'string') return [{ type: 'text', text: given }]
  return given.map((b) => (b.cache ? { type: 'text', text: b.text, cache_control: { type: 'ephemeral' } } : { type: 'text', text: b.text }))
}

/**
 * `$.model.fork`: the main conversation as the next round would send it — the same model,
 * system prompt, tools, messages and reasoning — with `prompt` after it, so that the API reads
 * all but the prompt from the cache the rounds wrote (spec loop-and-sdk §3.9 has compaction's
 * summary asked this way). The tools are sent only to keep that prefix: a call the model makes
 * anyway is not run, and the answer is the response's text.
 */
export async function fork(session: Session, req: ForkRequest, signal?: AbortSignal): Promise<ForkResult> {
  return forkConversation(session.root, req, signal)
}

/**
 * The same over one conversation of the session: the main one, or a subagent's (its child
 * session), whose own model, prompt, tools and cache the request reuses.
 */
export async function forkConversation(conv: Session, req: ForkRequest, signal?: AbortSignal): Promise<ForkResult> {
  if (conv.messages.length === 0) return { isAnswered: false, reason: 'nothing-to-fork', usage: zeroUsage() }
  const model = conv.model
  return answerOf(conv, model, signal, async () => {
    const request = await loopRequest(conv, model, withPrompt(conv.messages, req.prompt), undefined, 'fork')
    const capped = req.maxTokens ? { ...request, max_tokens: Math.min(req.maxTokens, request.max_tokens) } : request
    return withSessionReasoning(conv, capped)
  })
}

/**
 * The conversation with `prompt` as the last user words: a block after the last user message's
 * own (a request ending on tool results), or a user message of its own after an answer.
 * Nothing of the session's history is changed.
 */
function withPrompt(all: readonly MessageParam[], prompt: string): MessageParam[] {
  // Calls being answered (a fork from inside a tool call) have no results yet: the API refuses
  // calls without them, so the fork ends before the message that made them.
  const messages = isCalling(all.at(-1)!) ? all.slice(0, -1) : all
  const last = messages.at(-1)
  if (!last) return [{ role: 'user', content: prompt }]
  if (last.role !== 'user') return [...messages, { role: 'user', content: prompt }]
  const blocks = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content
  return [...messages.slice(0, -1), { role: 'user', content: [...blocks, { type: 'text', text: prompt }] }]
}

const isCalling = (m: MessageParam) => m.role === 'assistant' && Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_use')

/** Sends the request `build` makes and reads its blocks; the usage is accounted on the session whatever the outcome. */
async function answerOf(session: Session, model: string, signal: AbortSignal | undefined, build: () => Promise<ModelRequest>): Promise<CompleteResult> {
  let usage: Usage = zeroUsage()
  const content: ContentBlock[] = []
  try {
    const events = session.llm.stream(await build(), { signal })
    for await (const ev of events) {
      if (ev.type === 'message_start') {
        // A retried stream starts over, and so does its usage: the attempt that answers is the one
        // request counted, as the turn loop counts its own (accumulate.ts). Summed, two 60K prompts
        // would be priced as one 120K request, past a long-context line neither crossed.
        content.length = 0
        usage = readUsage(ev.message.usage)
      } else if (ev.type === 'message_delta' && ev.usage) {
        // The delta's counts are the response's totals so far, not increments.
        usage = readUsage(ev.usage, usage)
      } else foldBlock(content, ev)
    }
  } catch (err) {
    if (signal?.aborted) return { isAnswered: false, reason: 'aborted', usage }
    const e = err instanceof ModelApiError ? err : undefined
    return { isAnswered: false, reason: 'api-error', status: e?.status ?? null, error: e?.type ?? 'unknown', message: err instanceof Error ? err.message : String(err), usage }
  } finally {
    session.account(model, usage)
  }
  const text = content.map((b) => (b.type === 'text' ? b.text : '')).join('')
  // Server tool blocks with no words still answer (a search the model did not sum up); a fork's
  // tool_use alone does not: its call is not run.
  // An empty reply keeps its blocks too: a side question tells a tool call from silence by them.
  return text || content.some((b) => b.type === 'web_search_tool_result') ? { isAnswered: true, text, usage, content } : { isAnswered: false, reason: 'empty-reply', usage, ...(content.length > 0 ? { content } : {}) }
}

/** Builds the response's blocks from its stream events: text and tool input arrive in deltas. */
function foldBlock(content: ContentBlock[], ev: RawMessageStreamEvent): void {
  if (ev.type === 'content_block_start') {
    content[ev.index] = { ...ev.content_block } as ContentBlock
    if ('input' in content[ev.index]!) (content[ev.index] as { input: unknown }).input = ''
  } else if (ev.type === 'content_block_delta') {
    const block = content[ev.index]
    if (ev.delta.type === 'text_delta' && block?.type === 'text') block.text += ev.delta.text
    else if (ev.delta.type === 'input_json_delta' && block && 'input' in block) (block as { input: unknown }).input += ev.delta.partial_json
  } else if (ev.type === 'content_block_stop') {
    const block = content[ev.index]
    if (block && 'input' in block) (block as { input: unknown }).input = parseInput(block.input as string)
  }
}

function parseInput(json: string): unknown {
  try {
    return json.trim() === '' ? {} : JSON.parse(json)
  } catch {
    return json
  }
}
