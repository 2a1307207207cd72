import type { ContentBlock, ContentBlockParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { PlanEntry, SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk'
import type { SDKMessage } from '../../core/loop/messages.js'
import { toolInfo } from './tool-info.js'
import { TaskListSeen } from '../../mods/_shared/task-list-seen.js'

interface CallSeen { name: string; input: Record<string, unknown>; running: boolean; terminalId?: string; asked?: boolean }

/**
 * Turns modloop's message stream into ACP `session/update`s: streamed text and thinking deltas,
 * each tool call and its result, the plan TodoWrite or the task list keeps, a switch of the
 * permission mode. Live (`streamed`), text comes from the deltas and the complete assistant
 * message adds only its tool calls; a replayed history has no deltas, so its text comes from the
 * messages themselves.
 */
export class UpdateStream {
  private readonly calls = new Map<string, CallSeen>()
  private readonly taskList = new TaskListSeen()
  // The mode the editor was last told: a status message repeating it (a set_mode answered at once) tells nothing new.
  private mode: string | undefined

  constructor(private readonly streamed: boolean) {}

  /** The updates one message makes (none for the result, which ends the prompt, or a subagent's own messages). */
  of(m: SDKMessage): SessionUpdate[] {
    if ('parent_tool_use_id' in m && m.parent_tool_use_id) return m.type === 'user' ? this.askedResults(m.message.content) : []
    switch (m.type) {
      case 'stream_event': return this.delta(m.event)
      case 'assistant': return m.message.content.flatMap((b) => this.assistantBlock(b))
      case 'user': return this.user(m.message.content, m.isSynthetic === true || m.isCompactSummary === true, m.tool_use_result)
      case 'tool_progress': return this.running(m.tool_use_id)
      case 'system': return m.subtype === 'status' && typeof m.permissionMode === 'string' && m.permissionMode !== this.mode ? this.modeSwitched(m.permissionMode) : []
      default: return []
    }
  }

  /** The permission mode switched (the editor's set_mode, or an approved plan): the editor shows it. */
  modeSwitched(mode: string): SessionUpdate[] {
    this.mode = mode
    return [{ sessionUpdate: 'current_mode_update', currentModeId: mode }]
  }

  /**
   * The editor is asked about a call: one it was not shown (a subagent's, whose messages stay
   * inside its Agent call) is known from the ask on, so that its end is told too.
   */
  asked(toolUseId: string, name: string, input: Record<string, unknown>): void {
    if (!this.calls.has(toolUseId)) this.calls.set(toolUseId, { name, input, running: false, asked: true })
  }

  /** The call was allowed, or its tool reported progress: it runs now. */
  running(toolUseId: string): SessionUpdate[] {
    const call = this.calls.get(toolUseId)
    if (!call || call.running) return []
    call.running = true
    return [{ sessionUpdate: 'tool_call_update', toolCallId: toolUseId, status: 'in_progress' }]
  }

  /** The call runs in an editor terminal: the editor shows it live in the tool call (one it was shown: not a subagent's it was never asked about). */
  inTerminal(toolUseId: string, terminalId: string): SessionUpdate[] {
    const call = this.calls.get(toolUseId)
    if (!call) return []
    call.terminalId = terminalId
    return [{ sessionUpdate: 'tool_call_update', toolCallId: toolUseId, status: 'in_progress', content: [{ type: 'terminal', terminalId }] }]
  }

  private delta(event: Extract<SDKMessage, { type: 'stream_event' }>['event']): SessionUpdate[] {
    if (event.type !== 'content_block_delta') return []
    if (event.delta.type === 'text_delta') return [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.delta.text } }]
    if (event.delta.type === 'thinking_delta') return [{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: event.delta.thinking } }]
    return []
  }

  private assistantBlock(b: ContentBlock): SessionUpdate[] {
    if (b.type === 'text' && !this.streamed) return [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: b.text } }]
    if (b.type === 'thinking' && !this.streamed) return [{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: b.thinking } }]
    if (b.type !== 'tool_use') return []
    const input = (b.input ?? {}) as Record<string, unknown>
    this.calls.set(b.id, { name: b.name, input, running: false })
    const info = toolInfo(b.name, input)
    const call: SessionUpdate = { sessionUpdate: 'tool_call', toolCallId: b.id, title: info.title, kind: info.kind, status: 'pending', locations: info.locations, rawInput: input, content: info.content }
    const plan = b.name === 'TodoWrite' ? planOf(input.todos) : undefined
    return plan ? [call, { sessionUpdate: 'plan', entries: plan }] : [call]
  }

  private user(content: string | ContentBlockParam[], hidden: boolean, toolUseResult: unknown): SessionUpdate[] {
    if (typeof content === 'string') return this.streamed || hidden ? [] : [{ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: content } }]
    return content.flatMap((b): SessionUpdate[] => {
      if (b.type === 'tool_result') {
        const call = this.calls.get(b.tool_use_id)
        return [...this.result(b), ...this.taskPlan(call, b, toolUseResult)]
      }
      if (this.streamed || hidden) return []
      if (b.type === 'text') return [{ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: b.text } }]
      if (b.type === 'image' && b.source.type === 'base64') return [{ sessionUpdate: 'user_message_chunk', content: { type: 'image', data: b.source.data, mimeType: b.source.media_type } }]
      return []
    })
  }

  /** A subagent's results that end calls the editor was asked about. */
  private askedResults(content: string | ContentBlockParam[]): SessionUpdate[] {
    if (typeof content === 'string') return []
    return content.flatMap((b) => (b.type === 'tool_result' && this.calls.get(b.tool_use_id)?.asked ? this.result(b) : []))
  }

  /** The task list as an ACP plan, after a call that changed or listed it. */
  private taskPlan(call: CallSeen | undefined, b: ToolResultBlockParam, toolUseResult: unknown): SessionUpdate[] {
    if (!call || b.is_error === true) return []
    const tasks = this.taskList.after(call.name, call.input, toolUseResult)
    return tasks ? [{ sessionUpdate: 'plan', entries: planOf(tasks) ?? [] }] : []
  }

  private result(b: ToolResultBlockParam): SessionUpdate[] {
    const call = this.calls.get(b.tool_use_id)
    this.calls.delete(b.tool_use_id)
    const text = typeof b.content === 'string' ? b.content : (b.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n')
    const status = b.is_error === true ? 'failed' : 'completed'
    // An image the tool gave (Read of one, an MCP tool's) is shown in the editor as an image.
    const images: ToolCallContent[] = typeof b.content === 'string' ? [] : (b.content ?? []).flatMap((c) => (c.type === 'image' && c.source.type === 'base64'
      ? [{ type: 'content' as const, content: { type: 'image' as const, data: c.source.data, mimeType: c.source.media_type } }]
      : []))
    return [{ sessionUpdate: 'tool_call_update', toolCallId: b.tool_use_id, status, content: [...resultContent(call, text, b.is_error === true), ...images], rawOutput: text }]
  }
}

/** A change keeps its diff (unless it failed); a terminal stays shown; anything else shows what the model read. */
function resultContent(call: CallSeen | undefined, text: string, failed: boolean): ToolCallContent[] {
  if (call?.terminalId) return [{ type: 'terminal', terminalId: call.terminalId }]
  const diff = call && !failed ? toolInfo(call.name, call.input).content : []
  if (diff.length > 0) return diff
  if (!text) return []
  const body = call?.name === 'Bash' ? `\`\`\`console\n${text.replace(/\n$/, '')}\n\`\`\`` : text
  return [{ type: 'content', content: { type: 'text', text: body } }]
}

/** TodoWrite's list as an ACP plan. */
function planOf(todos: unknown): PlanEntry[] | undefined {
  if (!Array.isArray(todos)) return undefined
  return todos.flatMap((t): PlanEntry[] => {
    const todo = t as { content?: unknown; status?: unknown }
    if (typeof todo.content !== 'string') return []
    const status = todo.status === 'in_progress' || todo.status === 'completed' ? todo.status : 'pending'
    return [{ content: todo.content, status, priority: 'medium' }]
  })
}
