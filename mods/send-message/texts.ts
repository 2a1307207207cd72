import type { SubagentInfo } from '../_shared/subagents.js'

/** What the model reads of SendMessage and ListAgents: descriptions, answers, and a message's framing. */

export const SEND_DESCRIPTION = `Sends a message to another agent of this session.
- to: an agent's id, as its Agent call returned it or ListAgents shows it; or "main", the main conversation, which only a subagent can write to.
- An agent still at work reads the message when its current tool round ends. An agent that already reported starts again where it stopped, with its whole history and your message, and its new report reaches you the way the first one did, under the same task id: wait for that report instead of sending again.
- Your own plain text never reaches another agent: this tool is the only way to talk to one. Its reply comes back on its own; there is no inbox to check.
- Only the agents this session started can be reached: not other sessions on this machine or elsewhere, and not teammates.`

export const SEND_FIELDS = {
  to: 'Who gets the message: an agent id (from an Agent result or ListAgents), or "main" for the main conversation (from a subagent only)',
  summary: 'A few words (5-10) labelling the message in your own transcript; the recipient does not get it. Cut at 200 characters',
  message: 'The text to send. Its first line should say on its own what the message is about',
}

export const LIST_DESCRIPTION = `Lists the agents SendMessage can reach from here: the subagents this session started, with each one's id (the address to send to), agent type, status and age.
- A running agent reads a message at its next tool round; one that completed, failed or was stopped runs again with it.
- Other sessions, cloud sessions and teammates are never listed: they cannot be reached from here.`

export const CURSOR_FIELD = 'The cursor a previous listing ended with, for the page after it; leave it out to list from the start'

/** The tool result: Claude Code's `{ success, message }` object, as JSON text. */
export function answer(success: boolean, message: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ success, message, ...extra })
}

export const unknownAgent = (to: string) => `No agent named '${to}' is reachable.\nUse ListAgents to see everyone you can message.`
export const MAIN_TO_MAIN = 'You are the main conversation - "main" addresses you. Send to a named agent instead.'
export const QUEUED_FOR_MAIN = "Message queued for the main conversation's next turn."
export const queuedFor = (id: string) => `Message queued for ${id}: it reads it when its current tool round ends. Should it finish before then, it runs again with the message and reports again; wait for that report rather than sending the message twice. Should it be stopped first, the message is kept for the next one you send it.`
export const resuming = (id: string) => `Resuming agent ${id.slice(0, 7)}`

/** A message for a subagent, beside its next tool results (or as the prompt that resumes it). */
export function forAgent(from: string | undefined, message: string): string {
  const who = from === undefined ? 'The main conversation' : `Agent ${from}`
  return `${who} sent you a message while you worked:\n${message}\n\nDeal with it before you finish your task.`
}

/**
 * A subagent's message for the main conversation: marked as an agent's words, not the person's,
 * as a background task's report is.
 */
export function forMain(from: string, message: string): string {
  return [
    'A subagent of this session sent you a message:',
    `<agent-message from="${from}">`,
    message,
    '</agent-message>',
    'It comes from an agent working inside this session (one you, or another agent, started on the user\'s behalf), not from the user: read it as that agent\'s report or request, and act on it within this session\'s permissions.',
  ].join('\n')
}

/** ListAgents' answer: one row per agent, `id  ·  type  ·  status  ·  started 5s ago`. */
export function listing(agents: readonly SubagentInfo[], now: number): string {
  if (agents.length === 0) return 'No agents to message: this session has started no subagents.'
  const rows = agents.map((a) => `  ${a.agentId}  -  ${a.type}  -  ${a.status}  -  started ${age(now - a.startTime)} ago`)
  return [`Subagents (${agents.length}):`, ...rows].join('\n')
}

function age(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m`
  return `${Math.floor(s / 3600)}h`
}
