import type { AgentSpawnInput } from '../core/events/types.js'
import { envInteger } from '../core/env.js'
import { resolveAlias } from '../core/model/aliases.js'
import { uuid, zeroUsage, type SDKMessage } from '../core/loop/messages.js'
import { Session, type AgentScope } from '../core/loop/session.js'
import { runTurn } from '../core/loop/turn.js'
import { isRetry, retryProgress } from './subagent-retry.js'
import type { ForkRequest, SpawnAnswer, SpawnRequest, SubagentResult } from '../core/mod/contracts.js'
import { ModloopError } from '../core/errors.js'
import { forkConversation } from './complete.js'
import type { ToolRegistry } from '../core/tools/registry.js'

const SUBAGENT_PROMPT =
  'You are a subagent running in modloop. Do the task you are given with the tools you have, then reply with a concise report of what you found or did: it is all the agent that called you will see.'

/**
 * Which tools an agent type's `tools` or `disallowedTools` names, as Claude Code reads an agent
 * file: an alias (`Task`) stands for its tool, an MCP server's name (`mcp__github`, or
 * `mcp__github__*`) for every tool of that server, and in `tools` a permission-rule form
 * (`Bash(git status:*)`) names its tool; `*` (every tool) is the caller's to handle.
 */
function toolNames(list: readonly string[] | undefined, tools: ToolRegistry, rules: boolean): ((name: string) => boolean) | undefined {
  if (!list) return undefined
  const names = new Set<string>()
  const servers: string[] = []
  for (const entry of list) {
    const name = rules ? entry.replace(/\(.*\)$/s, '').trim() : entry
    const server = /^(mcp__(?:(?!__).)+)(?:__\*)?$/.exec(name)
    if (server) servers.push(`${server[1]}__`)
    names.add(tools.get(name)?.name ?? name)
  }
  return (name) => names.has(name) || servers.some((prefix) => name.startsWith(prefix))
}

export function maxSubagentDepth(env: Record<string, string | undefined>): number {
  return envInteger(env, 'MAX_SUBAGENT_SPAWN_DEPTH', 3, 1)
}

/**
 * Starts a subagent: `agent.spawn` may rewrite or refuse it, then a child session runs its own
 * loop with its own context and a restricted tool set. Its messages reach the root stream with
 * `parent_tool_use_id`; `done` resolves to its final report.
 */
export async function spawnSubagent(root: Session, req: SpawnRequest): Promise<SpawnAnswer> {
  const parent = req.parentAgentId ? root.agents.get(req.parentAgentId) : undefined
  const depth = (parent?.depth ?? 0) + 1
  const limit = maxSubagentDepth(root.env)
  if (depth > limit) return { deny: `Subagents may nest at most ${limit} deep; this one would be at depth ${depth}.` }
  if (req.agentId !== undefined && (req.agentId === '' || root.agents.has(req.agentId))) return { deny: `The agent id "${req.agentId}" is already taken in this session.` }
  const agentId = req.agentId ?? uuid()
  const e: AgentSpawnInput = {
    tool_use_id: req.parentToolUseId, prompt: req.prompt, description: req.description,
    subagentType: req.subagentType ?? 'general-purpose', parentModel: root.model,
    ...(req.model ? { model: req.model } : {}), ...(req.parentAgentId ? { parentAgentId: req.parentAgentId } : {}),
    ...(req.cwd ? { cwd: req.cwd } : {}), ...(req.omitClaudeMd ? { omitClaudeMd: true } : {}),
  }
  let spawned: AgentSpawnInput = e
  const decided = await root.host.bus.emit('agent.spawn', e, (e2) => {
    spawned = e2
    // Agent definitions name models as Claude Code's do: an alias (haiku, sonnet, opus), inherit, or an id.
    // Named nowhere, CLAUDE_CODE_SUBAGENT_MODEL picks it, as in Claude Code; `inherit` keeps the parent's.
    const named = e2.model ?? (root.env.CLAUDE_CODE_SUBAGENT_MODEL?.trim() || undefined)
    return { model: !named || named === 'inherit' ? root.model : resolveAlias(named, root.env), agentId }
  })
  if ('deny' in decided) return decided
  const scope: AgentScope = { agentId, parentToolUseId: req.parentToolUseId, depth, type: spawned.subagentType }
  const allowed = req.tools?.includes('*') ? undefined : toolNames(req.tools, root.tools, true)
  const denied = toolNames(req.disallowedTools, root.tools, false) ?? (() => false)
  const tools = root.tools.subset((t) =>
    // A tool's traits, not its name, keep it from a subagent (spec loop-and-sdk §7.3): one that acts on
    // the main conversation, at the depth limit one that spawns subagents, in the background one
    // that works on what the main conversation keeps.
    (!allowed || allowed(t.name)) && !denied(t.name) && !t.traits?.mainThreadOnly && !(t.traits?.spawnsAgents && depth >= limit)
    && !(t.traits?.foregroundOnly && req.background))
  const abort = new AbortController()
  if (req.signal?.aborted) abort.abort(req.signal.reason)
  req.signal?.addEventListener('abort', () => abort.abort(req.signal?.reason), { once: true })
  // Let go on release(): a handle someone still holds must not keep the whole history alive.
  let child: Session | undefined = new Session(root.host, root.llm, {
    ...root.options, systemPrompt: req.systemPrompt ?? SUBAGENT_PROMPT, appendSystemPrompt: undefined,
    maxTurns: req.maxTurns, abortController: abort, includePartialMessages: false,
    // The session's effort as it is now (`/effort` may have changed it), unless the call names one.
    effort: req.effort ?? root.effort ?? undefined, cwd: spawned.cwd ?? root.cwd,
  }, decided.model, { session: root, agent: scope, tools })
  // The session's effort reset to the model's default (applyFlagSettings) holds for its subagents too.
  if (req.effort === undefined && root.effort === null) child.effort = null
  root.agents.set(agentId, scope)
  // One run of the child: its first prompt, or a message that resumes it with its history.
  const live = (): Session => {
    if (!child) throw new Error(`agent ${agentId} was released: it cannot run again`)
    return child
  }
  const run = async (text: string, first: boolean): Promise<SubagentResult> => {
    if (first) await req.ready
    // Only the task's own words, not the context (memory files, git state) that rides with them.
    if (first && req.showPrompt) root.post(withSubagent(root.stamp({ type: 'user', message: { role: 'user', content: [{ type: 'text', text }] }, parent_tool_use_id: req.parentToolUseId })))
    const gen = runTurn(live(), { text, ...(first && spawned.context?.length ? { context: spawned.context } : {}), origin: { kind: 'sdk' } })
    const record = root.host.bus.has('session.message')
    let retrying = false
    // Its tool calls, counted as Claude Code counts a subagent's tool uses (not its turns).
    let toolUses = 0
    const toolNames = new Set<string>()
    for (;;) {
      const next = await gen.next()
      if (!next.done && next.value.type === 'assistant') {
        for (const b of next.value.message.content) if (b.type === 'tool_use') toolUses++, toolNames.add(b.name)
      }
      // Whatever follows a retry shown (an answer, a failure, its end) means the retry is over.
      if (retrying && (next.done || !isRetry(next.value))) {
        root.post(retryProgress(of, (m) => root.stamp(m)))
        retrying = false
      }
      // Its messages (those with parent_tool_use_id, and its result) are recorded here, in its
      // own order, before the root's stream carries them; the root records the rest.
      const own = next.done || ('parent_tool_use_id' in next.value && next.value.parent_tool_use_id)
      if (record && own) await root.host.bus.emit('session.message', { message: next.value, shown: !next.done, agentId })
      if (next.done) {
        const r = next.value
        return {
          agentId, text: r.subtype === 'success' ? r.result ?? '' : (r.errors ?? []).join('; '), isError: r.is_error, subtype: r.subtype,
          terminalReason: r.terminal_reason, numTurns: r.num_turns, toolUses, toolNames: [...toolNames], durationMs: r.duration_ms, usage: r.usage,
        }
      }
      if (req.shown && !req.shown(next.value)) continue
      if (isRetry(next.value)) retrying = true
      root.post(isRetry(next.value) ? retryProgress(of, (m) => root.stamp(m), next.value) : withSubagent(next.value))
    }
  }
  // On the caller's stream a subagent's messages say which subagent they are from, as Claude Code's do.
  const about = { agent_id: agentId, subagent_type: spawned.subagentType, task_description: req.taskDescription ?? req.description }
  const of = { agentId, parentToolUseId: req.parentToolUseId, subagentType: spawned.subagentType }
  const withSubagent = (m: SDKMessage): SDKMessage => (m.type === 'assistant' ? { ...m, ...about } : m.type === 'user' ? { ...onlyError(m), ...about } : m)
  let running: Promise<SubagentResult> = run(spawned.prompt, true)
  const settled = () => running.then(() => true, () => true)
  return {
    model: decided.model, agentId, depth, done: running,
    tell: (text, opts) => void child?.inbox.push({ text, ...(opts?.event ? { event: true as const } : {}) }),
    untold: () => (child?.inbox.splice(0) ?? []).flatMap((m) => (m.event ? [] : [m.text])),
    resume: async (text, signal) => {
      await settled()
      // Its first run's signal may have fired (a stop); the resumed run answers to its own.
      const resumed = new AbortController()
      if (signal?.aborted) resumed.abort(signal.reason)
      signal?.addEventListener('abort', () => resumed.abort(signal.reason), { once: true })
      live().options.abortController = resumed
      running = run(text, false)
      return running
    },
    // Over its conversation as it stands, from outside its run (a progress summary while it works).
    fork: async (fr: ForkRequest, options?: { signal?: AbortSignal }) => {
      if (typeof fr?.prompt !== 'string' || fr.prompt === '') throw new ModloopError('MODLOOP_ERR_USAGE', `fork of agent ${agentId} needs { prompt }, a text that is not empty`, { field: 'prompt' })
      return child ? forkConversation(child, fr, options?.signal) : { isAnswered: false as const, reason: 'nothing-to-fork' as const, usage: zeroUsage() }
    },
    release: () => {
      child = undefined
      root.agents.delete(agentId)
    },
  }
}

/**
 * A subagent's tool result as its caller's stream shows it: Claude Code keeps `tool_use_result`
 * only for a call that failed (its `Error: …` text); a call that succeeded carries none there.
 */
function onlyError(m: Extract<SDKMessage, { type: 'user' }>): SDKMessage {
  if (m.tool_use_result === undefined) return m
  const failed = Array.isArray(m.message.content) && m.message.content.some((b) => b.type === 'tool_result' && b.is_error === true)
  if (failed) return m
  const { tool_use_result: _, ...rest } = m
  return rest
}
