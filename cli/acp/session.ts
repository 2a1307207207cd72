import { uuid as newUuid } from '../../core/random.js'
import { RequestError, type AgentContext, type AvailableCommand, type ClientCapabilities, type ContentBlock, type SessionModeState, type SessionUpdate, type StopReason } from '@agentclientprotocol/sdk'
import type { SDKMessage } from '../../core/loop/messages.js'
import type { QueryOptions } from '../../runtime/options.js'
import type { Query } from '../../runtime/query.js'
import type { query } from '../../entry.js'
import type { ModApi } from '../../core/mod/api.js'
import { acpClientMod } from '../../mods/acp-client/index.js'
import { InputChannel } from '../../mods/terminal-ui/input-channel.js'
import { editorOf } from './editor.js'
import { sessionModes } from './modes.js'
import { askEditor } from './permission-ask.js'
import { permissionsOf } from './permissions-api.js'
import { promptContent } from './prompt.js'
import { stopReasonOf } from './stop-reason.js'
import { UpdateStream } from './updates.js'
import { describeError } from '../../core/errors.js'
import { slashCommandName } from '../../core/loop/command.js'

export interface SessionStart {
  client: AgentContext
  caps: ClientCapabilities | undefined
  /** The query options of every session (the command line's), with this session's cwd, MCP servers and id or resume. */
  options: QueryOptions & { cwd: string }
  log(line: string): void
}

interface Turn { uuid: string; resolve(r: StopReason): void; reject(err: unknown): void; cancelled: boolean; done: Promise<unknown> }

// How long close() waits for an interrupted turn to end before closing the session under it.
const TURN_END_WAIT_MS = 5_000

/**
 * One ACP session: a modloop session fed by the editor's prompts (query() with streaming input),
 * its messages relayed as `session/update`s in order, each prompt answered when its turn's result
 * arrives. One prompt runs at a time; `cancel` interrupts it.
 */
export class AcpSession {
  private readonly input = new InputChannel()
  private readonly stream = new UpdateStream(true)
  private readonly query: Query
  private $: ModApi | undefined
  private turn: Turn | undefined
  private sent: Promise<void> = Promise.resolve()
  private commandsShown = ''
  private prompted = false
  private failure: unknown

  private constructor(readonly id: string, private readonly start: SessionStart, run: typeof query, ready: { resolve(): void; reject(err: unknown): void }) {
    const { client, caps, options } = start
    const editor = editorOf(client, caps, id, (toolUseId, terminalId) => this.send(this.stream.inTerminal(toolUseId, terminalId)))
    const mod = acpClientMod({ editor, started: ($) => { this.$ = $; ready.resolve() } })
    const canUseTool = askEditor({
      client, sessionId: id, permissions: () => permissionsOf(this.$), log: start.log,
      asking: (toolUseId, tool, input) => this.stream.asked(toolUseId, tool, input),
      allowed: (toolUseId) => this.send(this.stream.running(toolUseId)),
    })
    this.query = run({ prompt: this.input, options: { ...options, includePartialMessages: true, canUseTool, mods: [...(options.mods ?? []), mod] } })
    void this.pump().catch((err: unknown) => {
      this.failure = err
      ready.reject(err)
      this.turn?.reject(RequestError.internalError(undefined, `the session stopped: ${describeError(err)}`))
      this.turn = undefined
    })
  }

  /** Opens a session (new, or resumed by `options.resume`) and resolves once its mods have started. */
  static async open(start: SessionStart): Promise<AcpSession> {
    const id = start.options.resume ?? start.options.sessionId ?? newUuid()
    let ready!: { resolve(): void; reject(err: unknown): void }
    const started = new Promise<void>((resolve, reject) => { ready = { resolve, reject } })
    // The loop loads with the first session: `initialize` is answered before any of it is imported.
    const { query } = await import('../../entry.js')
    const session = new AcpSession(id, { ...start, options: start.options.resume ? start.options : { ...start.options, sessionId: id } }, query, ready)
    await started
    // Mods start before the query holds its session, and its controls need that: a set_mode sent
    // right after session/new, or the mode in force that session/new reports.
    await session.query.supportedAgents()
    return session
  }

  /** The permission modes, the one in force current. */
  modes(): SessionModeState {
    const current = permissionsOf(this.$)?.mode?.() ?? this.start.options.permissionMode ?? 'default'
    return sessionModes(current, this.start.options.permissionMode === 'bypassPermissions')
  }

  async prompt(blocks: readonly ContentBlock[]): Promise<StopReason> {
    if (this.failure) throw RequestError.internalError(undefined, `the session stopped: ${describeError(this.failure)}`)
    if (this.turn) throw RequestError.invalidRequest({ sessionId: this.id }, `session ${this.id} is already running a prompt; wait for its answer or cancel it`)
    const content = promptContent(blocks)
    const first = content[0]
    if (content.length === 1 && first?.type === 'text' && isEditorsCommand(first.text)) {
      this.send([{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: EDITORS_COMMAND_NOTE } }])
      await this.sent
      return 'end_turn'
    }
    // Told again with the first prompt, in case the editor dropped the first telling: it came as the session was made.
    if (!this.prompted) void this.announceCommands(true).catch(() => {})
    this.prompted = true
    const uuid = newUuid()
    let settle!: Pick<Turn, 'resolve' | 'reject'>
    const done = new Promise<StopReason>((resolve, reject) => { settle = { resolve, reject } })
    this.turn = { uuid, ...settle, cancelled: false, done: done.catch(() => undefined) }
    this.input.send({ type: 'user', message: { role: 'user', content }, parent_tool_use_id: null, priority: 'next', uuid })
    return done
  }

  async cancel(): Promise<void> {
    const turn = this.turn
    if (!turn) return
    turn.cancelled = true
    // A prompt still waiting for the session to take it never starts a turn: it is answered here.
    const receipt = await this.query.interrupt({ cancel_queued: true })
    if (receipt?.cancelled?.includes(turn.uuid) && this.turn === turn) {
      this.turn = undefined
      await this.sent
      turn.resolve('cancelled')
    }
  }

  async setMode(modeId: string): Promise<void> {
    if (!this.modes().availableModes.some((m) => m.id === modeId)) {
      throw RequestError.invalidParams({ modeId }, `"${modeId}" is not one of this session's modes: ${this.modes().availableModes.map((m) => m.id).join(', ')}`)
    }
    await this.query.setPermissionMode(modeId)
    this.send(this.stream.modeSwitched(modeId))
  }

  /** Tells the editor the slash commands (and skills) the session offers, when they changed since last told. */
  async announceCommands(again = false): Promise<void> {
    const commands: AvailableCommand[] = (await this.query.supportedCommands()).filter((c) => !EDITORS_COMMANDS.has(c.name)).map((c) => ({
      name: c.name, description: c.description, ...(c.argumentHint ? { input: { hint: c.argumentHint } } : {}),
    }))
    const shown = JSON.stringify(commands)
    if (shown === this.commandsShown && !again) return
    this.commandsShown = shown
    this.send([{ sessionUpdate: 'available_commands_update', availableCommands: commands }])
  }

  /**
   * Ends the session; a prompt still running answers `cancelled`. It is interrupted first and its
   * end waited for (a little while): the call it was running is then answered as cut off and
   * recorded, so a session/load right after replays it ended rather than still running.
   */
  async close(): Promise<void> {
    const turn = this.turn
    if (turn) {
      turn.cancelled = true
      await this.query.interrupt({ cancel_queued: true }).catch(() => undefined)
      let timer: NodeJS.Timeout | undefined
      await Promise.race([turn.done, new Promise((resolve) => { timer = setTimeout(resolve, TURN_END_WAIT_MS) })])
      clearTimeout(timer)
    }
    this.input.end()
    await this.query.close()
    if (turn && this.turn === turn) {
      this.turn = undefined
      await this.sent
      turn.resolve('cancelled')
    }
  }

  /** Updates go out in the order they were made; a prompt is answered after its last one. */
  private send(updates: SessionUpdate[]): void {
    for (const update of updates) {
      this.sent = this.sent.then(() => this.start.client.notify('session/update', { sessionId: this.id, update })).catch((err: Error) => this.start.log(`an update could not be sent: ${err.message}`))
    }
  }

  private async pump(): Promise<void> {
    for await (const m of this.query as AsyncIterable<SDKMessage>) {
      if (m.type !== 'result') {
        this.send(this.stream.of(m))
        continue
      }
      const turn = this.turn
      // A background task's report runs as a turn of its own: its result answers no prompt of the editor's.
      if (!turn || m.origin?.kind === 'task-notification') continue
      // A turn with no model call (a local slash command: /help, /cost, /clear) answers only in its
      // result text, which no update carries: without this the editor shows nothing at all.
      if (m.subtype === 'success' && !m.is_error && m.num_turns === 0 && m.result) this.send([{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: m.result } }])
      await this.usage(m.total_cost_usd)
      await this.announceCommands().catch(() => {})
      await this.sent
      this.turn = undefined
      try {
        turn.resolve(stopReasonOf(m, turn.cancelled))
      } catch (err) {
        turn.reject(err)
      }
    }
  }

  /** How full the context window is and what the session has cost so far. */
  private async usage(costUsd: number): Promise<void> {
    const u = await this.query.getContextUsage()
    this.send([{ sessionUpdate: 'usage_update', used: u.totalTokens, size: u.maxTokens, cost: { amount: costUsd, currency: 'USD' } }])
  }
}

/**
 * Commands the editor does itself, not offered here. `/clear` moves the conversation to a new
 * session id the editor never learns: the editor's thread would keep the old id, and loading it
 * later would bring back what `/clear` dropped. A new thread in the editor is the fresh start.
 */
const EDITORS_COMMANDS = new Set(['clear'])
const EDITORS_COMMAND_NOTE = '/clear is not available in an editor: start a new thread for a fresh conversation.'

function isEditorsCommand(text: string): boolean {
  const name = slashCommandName(text)
  return name !== undefined && EDITORS_COMMANDS.has(name)
}
