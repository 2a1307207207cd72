import { runToolCall, type CallEnv, type CallOutcome, type ToolUse } from '../tools/pipeline.js'
import { resultBlock, resultMessage } from './answer.js'
import { followUps } from './follow-up.js'
import type { Ending } from './ending.js'
import type { SDKMessage } from './messages.js'
import { surfaceFields } from './session-options.js'
import type { Session } from './session.js'
import type { TurnEnd } from './turn-end.js'

/**
 * Deferral (spec loop-and-sdk §3.2, settings-hooks PreToolUse `defer`): a `tool.check` answer
 * `{decision: 'defer'}` holds a call back without running it. When it is the one call of a root
 * session's response the turn ends with `tool_deferred`, the tool_use stays in the history without
 * a result, and the next turn — in this session or after a resume — raises the same call again
 * (through tool.call and tool.check) before anything else. With several calls in the response, in
 * a subagent, or in an interactive session (someone is there to answer; the spec honours `defer`
 * only headless) the deferral is not honoured: that call gets an error result saying so, and the
 * turn goes on — in an interactive session with a warning the user sees.
 */

/** The call to end the turn on, if a `defer` verdict held back the one call of this response. */
export function deferralOf(session: Session, toolUses: readonly ToolUse[], outcomes: readonly CallOutcome[]): ToolUse | undefined {
  const held = outcomes.filter((o) => o.deferred)
  if (held.length === 0) return undefined
  const interactive = surfaceFields(session.options).isInteractive
  if (toolUses.length === 1 && !session.agent && !interactive) {
    const use = toolUses[0]!
    return { id: use.id, name: use.name, input: use.input }
  }
  const names = held.map((o) => o.name).join(', ')
  if (interactive && !session.agent && toolUses.length === 1) {
    session.post(session.stamp({
      type: 'system' as const, subtype: 'informational', level: 'warning',
      content: `Warning: A permission check deferred ${names}, but a deferral is honoured only in headless sessions (-p); the call was not run.`,
    }))
    return undefined
  }
  const where = session.agent ? 'in a subagent' : `with ${toolUses.length} tool calls in the response`
  session.options.log?.(`a deferral of ${names} was not honoured ${where}; the call was not run`)
  return undefined
}

/** The turn ends on a held-back call: its tool_use stays unanswered until the call is raised again. */
export function deferredEnding(session: Session, end: TurnEnd, held: ToolUse): Ending {
  session.deferred = held
  end.stopReason = 'tool_deferred'
  return { subtype: 'success', terminal: 'tool_deferred', isError: false, text: '', deferred: held }
}

/**
 * Raises the held-back call again, first thing in a turn. Returns the turn's ending when it ends
 * here (deferred again, or the tool is gone), else undefined once the call's result is in the
 * history.
 */
export async function* replayDeferred(session: Session, signal: AbortSignal, end: TurnEnd): AsyncGenerator<SDKMessage, Ending | undefined, undefined> {
  const held = session.deferred!
  if (!session.tools.get(held.name)) {
    end.stopReason = 'tool_deferred_unavailable'
    return {
      subtype: 'success', terminal: 'tool_deferred_unavailable', isError: true, deferred: held,
      text: `The deferred call ${held.name} (${held.id}) cannot run: this session has no tool named ${held.name}. It stays pending until a session that has the tool resumes it.`,
    }
  }
  const [outcome] = yield* session.drainWhile(Promise.all([runToolCall(callEnv(session, signal), held)]))
  if (outcome!.deferred) return deferredEnding(session, end, held)
  session.deferred = undefined
  const block = resultBlock(held, outcome)
  yield resultMessage(session, block, outcome)
  session.messages.push({ role: 'user', content: [block] })
  yield* followUps(session, [outcome!])
  return undefined
}

function callEnv(session: Session, signal: AbortSignal): CallEnv {
  return {
    bus: session.host.bus, tools: session.tools, cwd: session.cwd, sessionId: session.id, signal, model: session.model,
    canUseTool: session.options.canUseTool,
    onDenied: (d) => session.root.denials.push(d),
    onLinesChanged: (lines) => session.countLines(lines),
  }
}
