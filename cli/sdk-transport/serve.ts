import { describeError } from '../../core/errors.js'
import type { Readable } from 'node:stream'
import type { SDKUserMessage } from '../../core/loop/messages.js'
import type { QueryOptions } from '../../runtime/options.js'
import type { ElicitationResult, OnElicitation } from '../../runtime/sdk-options.js'
import type { CanUseTool, PermissionResult } from '../../core/tools/pipeline.js'
import { InputChannel } from '../../mods/terminal-ui/input-channel.js'
import type { CommandRun } from '../command.js'
import { markEntrypoint } from '../entrypoint.js'
import { queryOptions } from '../headless.js'
import { sessionWorktree } from '../worktree-flag.js'
import { guardProcess } from '../process-guard.js'
import { usageError } from '../usage-error.js'
import { answerControl, type ControlContext } from './controls.js'
import { initializeOptions, initializeResponse, joinOptions, sandboxWarnings, type InitializeRequest } from './initialize.js'
import { McpProxies } from './mcp-proxy.js'
import { Wire, type ControlRequest, type Incoming } from './wire.js'
import { SessionState } from './session-state.js'
import { AbortError } from '../../runtime/abort-error.js'
import { builtinsWith } from '../session-store.js'
import { sessionBuiltins } from '../start-mode.js'

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/**
 * The Agent SDK's transport: a headless session over stdin and stdout, one JSON object a line.
 * The first line is read before the session starts: an `initialize` control request adds its hooks,
 * SDK MCP servers, prompt and the rest to the command line's options. Then `user` lines feed the
 * prompt queue, control requests call the Query controls, and control responses answer ours
 * (can_use_tool, hook_callback, mcp_message). Every message of the session goes out as stream-json.
 * The session ends when stdin closes: exit 0, or 1 when its last result was an error.
 */
export const sdkTransport: CommandRun = async ({ values, positionals, io }) => {
  if ((values['output-format'] ?? 'stream-json') !== 'stream-json') throw usageError('--input-format stream-json needs --output-format stream-json')
  const base = queryOptions(values, io)
  base.cwd = (await sessionWorktree(values, base.cwd ?? io.cwd, io.env))?.cwd ?? base.cwd
  markEntrypoint(io, 'sdk-cli')
  const log = (line: string) => void io.stderr.write(`modloop: ${line}\n`)
  const wire = new Wire(io.stdout, log)
  const proxies = new McpProxies(wire, log)
  const stdin = (io.stdin ?? process.stdin) as Readable
  const lines = wire.lines(stdin)
  const first = await lines.next()
  const initialize = !first.done && isControl(first.value) && first.value.request.subtype === 'initialize' ? first.value : undefined

  const input = new InputChannel()
  if (positionals.length > 0) input.push(positionals.join(' '), 'next')
  const added = initialize ? initializeOptions(initialize.request as InitializeRequest, wire, proxies) : { options: {}, warnings: [] }
  const joined = joinOptions(base, added.options)
  for (const w of [...added.warnings, ...sandboxWarnings(joined.settings)]) log(w)
  const abort = new AbortController()
  const options: QueryOptions = {
    ...joined, abortController: abort,
    builtins: await sessionBuiltins(await builtinsWith(undefined), joined.env ?? io.env, [], joined.tools),
    ...(values['permission-prompt-tool'] === 'stdio' ? { canUseTool: askSdk(wire) } : {}),
    onElicitation: elicitSdk(wire),
  }
  const { query } = await import('../../entry.js')
  const q = query({ prompt: input, options })
  // A session that does not open is the stream's error, reported there; controls waiting on it are answered with it.
  const ready = q.initializationResult()
  ready.catch(() => undefined)
  const ctx: ControlContext = {
    query: q, wire, proxies, endInput: () => input.end(), ready,
    reinitialize: (request) => initializeResponse(q, request as InitializeRequest, false),
  }
  if (initialize) answerInitialize(ctx, initialize)
  let sessionId: string | undefined
  const state = new SessionState(wire, /^(1|true)$/i.test(io.env.CLAUDE_CODE_SDK_READS_SESSION_STATE ?? ''), () => sessionId)

  const inFlight = new Set<Promise<void>>()
  const dispatch = (m: Incoming) => {
    if (m.type === 'user') {
      state.set('running')
      input.send(m as unknown as SDKUserMessage)
    }
    else if (isControl(m)) {
      const answering = answerControl(m, ctx)
      inFlight.add(answering)
      void answering.finally(() => inFlight.delete(answering))
    }
    // The SDK waits on every request_id it sends: one it cannot read is still answered.
    else if (m.type === 'control_request' && typeof m.request_id === 'string') wire.respond(m.request_id, { error: 'a control_request needs a request with a subtype', code: 'unsupported_request' })
    else if (m.type === 'control_response') wire.answered(m.response)
    // A cancel of a request of the SDK's that is already answered, and keep-alives, need nothing.
    else if (m.type !== 'control_cancel_request' && m.type !== 'keep_alive') log(`stdin: a line of type ${JSON.stringify(m.type)} is not understood; skipped`)
  }
  const reading = (async () => {
    if (!first.done && !initialize) dispatch(first.value)
    for await (const m of lines) dispatch(m)
  })().finally(async () => {
    // The SDK closes its input once the session is idle, maybe with controls it sent just before
    // still to answer: they are answered while the session is open, then it ends.
    await Promise.allSettled([...inFlight])
    input.end()
  })
  reading.catch((err: unknown) => log(`stdin could not be read: ${describeError(err)}`))

  let caught: NodeJS.Signals | undefined
  const onSignal = (signal: NodeJS.Signals) => {
    caught ??= signal
    input.end()
    abort.abort(new Error(`stopped by ${signal}`))
  }
  const signals = io.ownsProcess ? STOP_SIGNALS : []
  for (const s of signals) process.once(s, onSignal)
  const unguard = io.ownsProcess ? guardProcess(io, (err) => abort.abort(err)) : () => {}
  let lastIsError = false
  try {
    for await (const m of q) {
      sessionId = m.session_id
      if (m.type === 'assistant') state.set('running')
      if (m.type === 'result') lastIsError = m.is_error
      wire.send(m)
      // The run is over once its result is out and nothing waits to run after it.
      if (m.type === 'result' && q.isIdle()) state.set('idle')
    }
  } catch (err) {
    // The abort is this process's own (a signal, a crash guard): the exit status tells of it.
    if (!(err instanceof AbortError)) throw err
  } finally {
    for (const s of signals) process.off(s, onSignal)
    unguard()
    wire.close('the session has ended')
  }
  if (caught) return 128 + (caught === 'SIGINT' ? 2 : caught === 'SIGTERM' ? 15 : 1)
  return lastIsError ? 1 : 0
}

function isControl(m: Incoming): m is Incoming & ControlRequest {
  return m.type === 'control_request' && typeof m.request_id === 'string' && typeof (m.request as { subtype?: unknown } | undefined)?.subtype === 'string'
}

/** Initialize is answered once the session is open (its commands and agents are known then). */
function answerInitialize(ctx: ControlContext, message: ControlRequest): void {
  initializeResponse(ctx.query, message.request as InitializeRequest, true).then(
    (response) => ctx.wire.respond(message.request_id, { response }),
    (err: unknown) => ctx.wire.respond(message.request_id, { error: `the session could not start: ${describeError(err)}` }),
  )
}

/**
 * `--permission-prompt-tool stdio`: each ask goes to the SDK's canUseTool as a `can_use_tool`
 * request. An approver that cannot be reached (the SDK closed its input) denies, saying why.
 */
function askSdk(wire: Wire): CanUseTool {
  return async (toolName, input, o) => {
    try {
      // What the session said before the ask (a PermissionRequest hook's hook_response) waits in
      // its stream, which the control request does not: one turn of the event loop lets it out first.
      await new Promise((resolve) => setImmediate(resolve))
      const r = await wire.request({
        subtype: 'can_use_tool', tool_name: toolName, input, tool_use_id: o.toolUseID,
        ...(o.suggestions ? { permission_suggestions: o.suggestions } : {}), ...(o.blockedPath ? { blocked_path: o.blockedPath } : {}),
        ...(o.decisionReason ? { decision_reason: o.decisionReason } : {}), ...(o.agentID ? { agent_id: o.agentID } : {}),
        ...(o.mcpServer ? { mcp_server: o.mcpServer } : {}), ...(o.requiresUserInteraction ? { requires_user_interaction: true } : {}),
      }, o.signal)
      return permissionResult(r, toolName)
    } catch (err) {
      if (o.signal.aborted) throw err
      return { behavior: 'deny', message: `The SDK's canUseTool could not be asked about ${toolName}: ${describeError(err)}` }
    }
  }
}

/**
 * An MCP server's request for the user's input goes to the SDK as an `elicitation` request, which
 * the application's onElicitation answers (the SDK itself declines when it has none).
 */
function elicitSdk(wire: Wire): OnElicitation {
  return async (request, o) => {
    const properties = request.requestedSchema?.properties
    const order = properties && typeof properties === 'object' ? Object.keys(properties) : undefined
    const r = await wire.request({
      subtype: 'elicitation', mcp_server_name: request.serverName, message: request.message,
      ...(request.mode ? { mode: request.mode } : {}), ...(request.url ? { url: request.url } : {}),
      ...(request.elicitationId ? { elicitation_id: request.elicitationId } : {}),
      ...(request.requestedSchema ? { requested_schema: request.requestedSchema, ...(order ? { property_order: order } : {}) } : {}),
      ...(request.title ? { title: request.title } : {}), ...(request.displayName ? { display_name: request.displayName } : {}),
      ...(request.description ? { description: request.description } : {}),
    }, o.signal)
    return r as unknown as ElicitationResult
  }
}

function permissionResult(r: Record<string, unknown>, toolName: string): PermissionResult {
  if (r.behavior === 'allow') {
    return {
      behavior: 'allow',
      ...(r.updatedInput && typeof r.updatedInput === 'object' ? { updatedInput: r.updatedInput as Record<string, unknown> } : {}),
      ...(Array.isArray(r.updatedPermissions) ? { updatedPermissions: r.updatedPermissions as never } : {}),
    }
  }
  if (r.behavior === 'deny') return { behavior: 'deny', message: typeof r.message === 'string' ? r.message : `Denied: ${toolName}`, ...(r.interrupt === true ? { interrupt: true } : {}) }
  return { behavior: 'deny', message: `The SDK's canUseTool answered ${JSON.stringify(r).slice(0, 200)} about ${toolName}, not allow or deny` }
}
