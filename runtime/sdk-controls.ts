import { ModloopError } from '../core/errors.js'
import type { CapabilityName } from '../core/mod/capabilities.js'
import { VERSION } from '../core/version.js'
import { pump } from '../core/loop/input-queue.js'
import type { SDKUserMessage } from '../core/loop/messages.js'
import { supportedModels, type ModelInfo } from './model-controls.js'
import type { McpServerConfig, McpServerMode } from '../core/mod/session-capabilities.js'
import { mcpServerStatus } from './server-status.js'
import { applyFlagSettings } from './flag-settings.js'
import type { Session } from '../core/loop/session.js'
import { supportedCommands, type SlashCommand } from './supported-commands.js'
import { availableOutputStyles, outputStyleOf } from './output-style.js'
import type { FileReadAnswer, McpResourceContents, McpSetServersResult } from '../core/mod/session-capabilities.js'
import { askSideQuestion, type SideAnswer } from './side-question.js'

/** An agent type the session offers (the SDK's AgentInfo). */
export interface AgentInfo { name: string; description: string; model?: string }

/** Who pays for the requests, as far as modloop knows (the SDK's AccountInfo). */
export interface AccountInfo { apiKeySource?: string; tokenSource?: string; apiProvider?: 'firstParty' }

/** What `Query.initializationResult` answers: the SDK's initialize response, as modloop fills it. */
export interface InitializationResult {
  commands: SlashCommand[]
  agents: AgentInfo[]
  output_style: string
  available_output_styles: string[]
  models: ModelInfo[]
  account: AccountInfo
  claude_code_version: string
}

/** The Query methods of the Agent SDK that `query.ts` leaves to this file. */
export interface SdkControls {
  /** Sends more user messages into a session started with streaming input; resolves once `stream` ends. */
  streamInput(stream: AsyncIterable<SDKUserMessage>): Promise<void>
  /** What the session offers once it is open: commands, agents, models, account. */
  initializationResult(): Promise<InitializationResult>
  supportedAgents(): Promise<AgentInfo[]>
  accountInfo(): Promise<AccountInfo>
  /** Deprecated in the SDK (use `thinking`): 0 turns thinking off, another number is a budget, null restores the query's own. */
  setMaxThinkingTokens(maxThinkingTokens: number | null): Promise<void>
  reconnectMcpServer(serverName: string): Promise<void>
  toggleMcpServer(serverName: string, enabled: boolean): Promise<void>
  setMcpServers(servers: Record<string, McpServerConfig>): Promise<McpSetServersResult>
  /** One resource of a connected MCP server; throws naming the server when it has none or fails. */
  readMcpResource(serverName: string, uri: string): Promise<McpResourceContents>
  /** Reads the skill directories again: what was written since is offered from the next request; answers the skills now loaded. */
  reloadSkills(): Promise<{ skills: SlashCommand[] }>
  /**
   * A file of the session (relative to its cwd, or absolute), gated as a Read call is but with no
   * one to ask: null when the rules would not let Read have it at once, or it is missing or not a
   * regular file. At most `maxBytes` (default 1 MB; `truncated` past it), as text or base64.
   */
  readFile(path: string, options?: { maxBytes?: number; encoding?: 'utf-8' | 'base64' }): Promise<FileReadAnswer | null>
  /**
   * Records that the application saw a Read of `path` at `mtime` (ms, floored) whose result has
   * left the context, so Edit and Write accept the file; skipped when the file changed since.
   */
  seedReadState(path: string, mtime: number): Promise<void>
  /**
   * Pins the calls of an MCP server (by the name it was registered under) to the default mode's
   * asking, or to auto mode's classifier, where the session's mode would let them run unasked
   * (bypassPermissions, auto); `null` takes the pin away. It never widens what runs. A pin is kept
   * for a server not known yet; `warning` then says so (a misspelt name, most likely).
   */
  setMcpPermissionModeOverride(serverName: string, mode: McpServerMode | null): Promise<{ warning?: string }>
  /**
   * Merges settings into the flag layer (the query's `settings`, mid-session): a top-level key at
   * a time, `null` taking one out. See flag-settings.ts for what applies when; a value of the wrong
   * kind for a key applied at once rejects the whole call.
   */
  applyFlagSettings(settings: Record<string, unknown>): Promise<void>
  /** Reads the output-style directories again; answers the style names, `default` first. */
  reloadOutputStyles(): Promise<{ available_output_styles: string[] }>
  /**
   * A side question (Claude Code's `/btw`): one request over the conversation so far, its answer
   * returned here and nowhere else. No tool runs, nothing joins the history or the transcript, and
   * a turn that runs goes on undisturbed; its cost counts in the session's. `signal` calls it off.
   */
  askSideQuestion(question: string, options?: { signal?: AbortSignal }): Promise<SideAnswer>
}

/**
 * `open` opens the session if it is not yet (a control may come before the first message is
 * asked for, as the Agent SDK allows); `running` settles once the query's loop took it.
 */
export function sdkControls(open: () => Promise<Session>, running: Promise<Session>): SdkControls {
  const capability = async <N extends CapabilityName>(name: N, method: string) => {
    const session = await open()
    const value = session.host.capabilities.get(name)
    if (value) return value
    const usual = session.host.usual('capabilities', name)
    throw new ModloopError('MODLOOP_ERR_CAPABILITY_MISSING', `Query.${method}: no loaded mod provides "${name}"${usual ? ` (the ${usual} mod does normally)` : ''}`, { field: method })
  }
  let ownThinking: { value: Session['options']['thinking'] } | undefined
  return {
    async streamInput(stream) {
      const session = await running
      const queue = session.input
      if (!queue) throw new ModloopError('MODLOOP_ERR_USAGE', 'Query.streamInput: the query was started with a string prompt; start it with an async iterable to send more messages', { field: 'streamInput' })
      let failure: unknown
      await new Promise<void>((resolve) => {
        pump(stream, { push: (m: SDKUserMessage) => queue.push(m), end: resolve }, (err) => { failure = err })
      })
      if (failure) throw failure
    },
    async initializationResult() {
      const session = await open()
      return {
        commands: supportedCommands(session), agents: agentsOf(session), output_style: outputStyleOf(session), available_output_styles: availableOutputStyles(session),
        models: supportedModels(session), account: accountOf(session), claude_code_version: VERSION,
      }
    },
    async supportedAgents() {
      return agentsOf(await open())
    },
    async accountInfo() {
      return accountOf(await open())
    },
    async setMaxThinkingTokens(n) {
      const options = (await open()).root.options
      ownThinking ??= { value: options.thinking }
      options.thinking = n === null ? ownThinking.value : n === 0 ? { type: 'disabled' } : { type: 'enabled', budgetTokens: n }
    },
    async reconnectMcpServer(name) {
      await (await capability('mcpControl', 'reconnectMcpServer')).reconnect(name)
    },
    async toggleMcpServer(name, enabled) {
      await (await capability('mcpControl', 'toggleMcpServer')).toggle(name, enabled)
    },
    async setMcpServers(servers) {
      return (await capability('mcpControl', 'setMcpServers')).setServers(servers)
    },
    async readMcpResource(server, uri) {
      return (await capability('mcpControl', 'readMcpResource')).readResource(server, uri)
    },
    async reloadSkills() {
      await (await capability('skillReload', 'reloadSkills'))()
      const session = await open()
      const skills = new Set([...session.commands.values()].filter((c) => c.kind === 'skill').map((c) => c.name))
      return { skills: supportedCommands(session).filter((c) => skills.has(c.name)) }
    },
    async readFile(path, o) {
      const files = await capability('fileAccess', 'readFile')
      const session = await open()
      // Why it refused is the control channel's error; the SDK's readFile turns that into null too.
      const answer = await files.read({ sessionId: session.id, cwd: session.cwd, path, ...o })
      return answer.ok ? answer.file : null
    },
    async seedReadState(path, mtime) {
      const files = await capability('fileAccess', 'seedReadState')
      const session = await open()
      // A seed skipped (the file changed since) is no failure: Edit then asks for a fresh Read, as in Claude Code.
      await files.seed({ sessionId: session.id, cwd: session.cwd, path, mtime })
    },
    async setMcpPermissionModeOverride(serverName, mode) {
      if (typeof serverName !== 'string' || serverName === '') throw new ModloopError('MODLOOP_ERR_USAGE', 'setMcpPermissionModeOverride: serverName must be the name of an MCP server', { field: 'serverName' })
      if (mode !== null && mode !== 'default' && mode !== 'auto') {
        throw new ModloopError('MODLOOP_ERR_USAGE', `setMcpPermissionModeOverride: ${JSON.stringify(mode)} cannot pin a server; the mode is "default", "auto" or null (to take the pin away), as a pin may only narrow the session's mode`, { field: 'mode' })
      }
      const owner = await capability('permissionMode', 'setMcpPermissionModeOverride')
      if (!owner.setServerMode) throw new ModloopError('MODLOOP_ERR_CAPABILITY_MISSING', 'Query.setMcpPermissionModeOverride: the mod that owns permission modes does not pin MCP servers', { field: 'setMcpPermissionModeOverride' })
      owner.setServerMode(serverName, mode)
      const known = mcpServerStatus(await open()).map((s) => s.name)
      if (known.includes(serverName)) return {}
      return { warning: `no MCP server named "${serverName}" is known to this session (${known.length > 0 ? `known: ${known.join(', ')}` : 'none is'}); ${mode === null ? 'there was no pin to take away' : 'the pin is kept and applies once a server of that name connects'}` }
    },
    async applyFlagSettings(settings) {
      await applyFlagSettings(await open(), settings)
    },
    async reloadOutputStyles() {
      const styles = await capability('outputStyleList', 'reloadOutputStyles')
      return { available_output_styles: await styles.reload((await open()).root.id) }
    },
    async askSideQuestion(question, o) {
      return askSideQuestion(await open(), question, o?.signal)
    },
  }
}

function agentsOf(session: Session): AgentInfo[] {
  return [...session.root.agentTypes.values()].map((a) => ({ name: a.name, description: a.description }))
}

function accountOf(session: Session): AccountInfo {
  const env = session.env
  return {
    apiProvider: 'firstParty',
    ...(env.ANTHROPIC_API_KEY ? { apiKeySource: 'ANTHROPIC_API_KEY' } : env.ANTHROPIC_AUTH_TOKEN ? { tokenSource: 'ANTHROPIC_AUTH_TOKEN' } : {}),
  }
}
