import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { SDKMessage, SDKResultMessage, SDKUserMessage } from './messages.js'
import { assertPrompt, closeSession, openSession } from './open.js'
import type { PromptInput, QueryOptions } from './options.js'
import type { Session } from './session.js'
import { InputQueue, pump } from './input-queue.js'
import { runTurn, type TurnInput } from './turn.js'

/** The object `query()` returns: the message stream, plus controls. */
export interface Query extends AsyncGenerator<SDKMessage, void, undefined> {
  /** Interrupts the running turn (it ends aborted_streaming or aborted_tools). */
  interrupt(): Promise<void>
  /** Ends the session at once. */
  close(): Promise<void>
}

/**
 * Runs the agent. A string prompt is one turn with exactly one result; an async iterable of user
 * messages is a session with one result per message. A single-shot turn that ends in an error
 * subtype yields its result and then throws, as the Agent SDK does.
 */
export function query(params: { prompt: PromptInput; options?: QueryOptions }): Query {
  assertPrompt(params.prompt)
  const options = params.options ?? {}
  let session: Session | undefined
  const gen = run(params.prompt, options, (s) => { session = s }) as Query
  gen.interrupt = async () => {
    session?.turnAbort?.abort(new Error('interrupted'))
  }
  gen.close = async () => {
    session?.turnAbort?.abort(new Error('closed'))
    await gen.return(undefined)
  }
  return gen
}

async function* run(prompt: PromptInput, options: QueryOptions, opened: (s: Session) => void): AsyncGenerator<SDKMessage, void, undefined> {
  const session = await openSession(options)
  opened(session)
  let failed: SDKResultMessage | undefined
  try {
    if (typeof prompt === 'string') {
      const result = yield* recorded(session, runTurn(session, { text: prompt, origin: { kind: 'sdk' } }))
      if (result.subtype !== 'success') failed = result
      yield* drainQueued(session)
    } else {
      const queue = new InputQueue(() => session.turnAbort?.abort(new Error('interrupted by a message sent with priority "now"')))
      session.input = queue
      let inputError: unknown
      pump(prompt, queue, (err) => { inputError = err })
      for (let message = await queue.take(); message; message = await queue.take()) {
        yield* recorded(session, runTurn(session, turnInput(message)))
        yield* drainQueued(session)
      }
      if (inputError) throw inputError
    }
  } finally {
    await closeSession(session, 'other', !options.host)
  }
  if (failed) throw new Error(failed.errors?.join('; ') || `the turn ended with ${failed.subtype}`)
}

/** Prompts mods submitted during a turn run as their own turns once it ends. */
async function* drainQueued(session: Session): AsyncGenerator<SDKMessage, void, undefined> {
  while (session.queued.length > 0) {
    const text = session.queued.shift()!
    yield* recorded(session, runTurn(session, { text, origin: { kind: 'plugin', name: 'mod' } }))
  }
}

/** Relays a turn's messages, the result last, each through session.message before the caller sees it. */
async function* recorded(session: Session, turn: AsyncGenerator<SDKMessage, SDKResultMessage, undefined>): AsyncGenerator<SDKMessage, SDKResultMessage, undefined> {
  const record = session.host.bus.has('session.message')
  for (;;) {
    const next = await turn.next()
    // A subagent's messages (they carry parent_tool_use_id) were recorded by its own loop.
    if (record && !('parent_tool_use_id' in next.value && next.value.parent_tool_use_id)) await session.host.bus.emit('session.message', { message: next.value, shown: true })
    yield next.value
    if (next.done) return next.value
  }
}

function turnInput(message: SDKUserMessage): TurnInput {
  const content = message.message.content
  if (typeof content === 'string') return { text: content, origin: { kind: 'sdk' } }
  const texts = content.filter((b) => b.type === 'text') as Extract<ContentBlockParam, { type: 'text' }>[]
  const text = texts.map((b) => b.text).join('\n')
  return { text, origin: { kind: 'sdk' }, content: content.filter((b) => b.type !== 'text') }
}
