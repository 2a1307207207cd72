import type { PermissionMode } from '../permission-modes.js'
import type { EffortLevel } from '../model/capabilities.js'

// The capabilities the runtime reads to answer the Query controls and the init message, provided
// by the mods that own each thing; without a provider the runtime answers as each line says.

export interface McpServerStatus { name: string; status: string; [field: string]: unknown }

/** The one owner of the session's permission mode: the mod that decides permissions provides it. */
export interface PermissionModeOwner {
  /** The mode the owner decides under now. */
  mode(): string
  /** Switches the mode for the calls that follow (Query.setPermissionMode, Shift+Tab). */
  setMode(mode: PermissionMode): void | Promise<void>
  /** The mode a call of `tool` is decided under: mode(), or its MCP server's override where one applies (setServerMode). */
  modeFor?(tool: string): string
  /**
   * Pins the calls of the MCP server named `server` (by the name it was registered under) to
   * `default` (each one asked about) or `auto` (the classifier's), where the session's mode would
   * let them run unasked (bypassPermissions, auto): it only ever narrows. Null takes the pin away.
   * Kept for a server not connected yet (Query.setMcpPermissionModeOverride).
   */
  setServerMode?(server: string, mode: McpServerMode | null): void
}

/** What an MCP server's calls may be pinned to (Query.setMcpPermissionModeOverride). */
export type McpServerMode = 'default' | 'auto'

/** What `Query.rewindFiles` answers (the Agent SDK's RewindFilesResult). */
export interface RewindFilesResult {
  canRewind: boolean
  error?: string
  filesChanged?: string[]
  insertions?: number
  deletions?: number
}

/** Restores the files as they were before a user message's turn; `dryRun` only reports. */
export type RewindService = (userMessageId: string, options: { dryRun?: boolean }) => Promise<RewindFilesResult>

/** An MCP server for one query, as the Agent SDK spells it; the mcp mod validates and connects it. */
export type McpServerConfig =
  | { type?: 'stdio'; command: string; args?: string[]; env?: Record<string, string>; timeout?: number }
  | { type: 'http' | 'sse'; url: string; headers?: Record<string, string>; timeout?: number }
  | { type: 'sdk'; name: string; instance: unknown; timeout?: number }
  // Other server kinds of the Agent SDK's type (claudeai-proxy, …): the mcp mod names what it cannot connect.
  | { type: string; [field: string]: unknown }

/** What `Query.setMcpServers` answers. */
export interface McpSetServersResult { added: string[]; removed: string[]; errors: Record<string, string> }

/** The session's MCP servers changed while it runs (Query.reconnectMcpServer, toggleMcpServer, setMcpServers). */
export interface McpControl {
  reconnect(name: string): Promise<void>
  toggle(name: string, enabled: boolean): Promise<void>
  /** Replaces the servers an earlier call set (and the query's in-process ones) with these. */
  setServers(servers: Record<string, McpServerConfig>): Promise<McpSetServersResult>
  /** One resource of a server, as the server sends it (Query.readMcpResource). */
  readResource(server: string, uri: string): Promise<McpResourceContents>
}

/** What Query.readMcpResource answers: the resource's items, text or base64 `blob`. */
export interface McpResourceContents {
  contents: { uri: string; mimeType?: string; text?: string; blob?: string; _meta?: Record<string, unknown> }[]
}

/** What Query.readFile asks: a path (relative to the session's cwd, or absolute) and how much of it, how encoded. */
export interface FileReadRequest { sessionId: string; cwd: string; path: string; maxBytes?: number; encoding?: 'utf-8' | 'base64' }

/** What Query.readFile answers (the Agent SDK's SDKControlReadFileResponse). */
export interface FileReadAnswer {
  contents: string
  absPath: string
  truncated?: boolean
  encoding?: 'base64'
  /** On a utf-8 answer: some bytes were not valid UTF-8 and were replaced. */
  lossy?: boolean
}

/**
 * The session's files as its Read tool sees them, for the application (the mod that provides Read
 * provides it): `read` is gated as a Read call is and says why it refused; `seed` records a Read
 * the application saw (Query.seedReadState), unless the file changed since `mtime`, and says which.
 * Both throw, naming the field, for a malformed request.
 */
export interface FileAccess {
  read(request: FileReadRequest): Promise<{ ok: true; file: FileReadAnswer } | { ok: false; reason: string }>
  seed(request: { sessionId: string; cwd: string; path: string; mtime: number }): Promise<{ seeded: boolean; reason?: string }>
}

/** The output styles a session can choose from, by session id (the mod that reads them provides it). */
export interface OutputStyleList {
  /** The names, `default` first, as init's `available_output_styles` lists them. */
  names(sessionId: string): string[]
  /** Reads the style directories again (Query.reloadOutputStyles) and answers the names. */
  reload(sessionId: string): Promise<string[]>
}

declare module './capabilities.js' {
  interface Capabilities {
    /** The statuses of the session's MCP servers (the mod that connects them provides it); without it there are none. */
    serverStatus: () => readonly McpServerStatus[]
    /** The output style in force in a session, by its id (the mod that reads output styles provides it); without it, `default`. */
    outputStyle: (sessionId: string) => string
    /** The output styles to choose from (the same mod); without it, only the one in force. */
    outputStyleList: OutputStyleList
    /** Query.readFile and Query.seedReadState (the mod that provides the Read tool); without it both refuse. */
    fileAccess: FileAccess
    /** The session's permission mode, by its one owner (the permissions mod); without it, `default` and tools run unchecked. */
    permissionMode: PermissionModeOwner
    /** The file checkpoints of the session (a checkpointing mod provides it); without it rewindFiles answers that checkpointing is off. */
    fileRewind: RewindService
    /** Changes to the MCP servers of a running session (the mod that connects them provides it). */
    mcpControl: McpControl
    /**
     * Reads the skill and command directories again (Query.reloadSkills; the mod that loads skills
     * provides it): a skill written while the session runs is listed and callable from the next request.
     */
    skillReload: () => Promise<void>
    /**
     * The model the settings files name (their `model` key), by session id, read at session start
     * (the mod that reads the settings provides it): a session nothing else names a model for
     * starts on it. Without it, the settings' model is not read.
     */
    settingsModel: (sessionId: string) => string | undefined
    /**
     * The effort the settings files name (their `effortLevel` key) for a request to `model`, by
     * session id, read at session start by the same mod: a session with no effort of its own
     * (`--effort`, `/effort`) asks for it. Without it, the settings' effort is not read.
     */
    settingsEffort: (sessionId: string, model: string) => EffortLevel | undefined
    /**
     * The `apiKeyHelper` the settings files name (a shell command printing the API key) and the
     * file that named it, by session id, read at session start by the same mod: the model client
     * asks for it at its first request. Without it, no helper runs.
     */
    apiKeyHelper: (sessionId: string) => { command: string; file: string } | undefined
  }
}
