import { ModloopError } from '../errors.js'
import { contextWindow } from '../model/pricing.js'
import type { Session } from './session.js'

/** The permission modes a session may switch to (spec loop-and-sdk §3.3). */
import { PERMISSION_MODES, type PermissionMode } from '../permission-modes.js'

export { PERMISSION_MODES, type PermissionMode }

/**
 * Where the session's permission mode is published once the host changed it mid-session
 * (`Query.setPermissionMode`): `$.state` under this ref, written by core, read by the mods that
 * decide permissions. Unset, the mode comes from the options and settings as the session started.
 */
export const PERMISSION_MODE_REF = { plugin: 'session', key: 'permissionMode' } as const

/** What `Query.rewindFiles` answers (the Agent SDK's RewindFilesResult). */
export interface RewindFilesResult {
  canRewind: boolean
  error?: string
  filesChanged?: string[]
  insertions?: number
  deletions?: number
}

/**
 * The file-checkpoint service a mod publishes as `$.state` under this ref (the checkpoints mod);
 * without it `rewindFiles` answers that checkpointing is off.
 */
export const REWIND_REF = { plugin: 'checkpoints', key: 'rewind' } as const
export type RewindService = (userMessageId: string, options: { dryRun?: boolean }) => Promise<RewindFilesResult>

export interface SlashCommand { name: string; description: string; argumentHint: string }
export interface McpServerStatus { name: string; status: string; [field: string]: unknown }

/** How full the context window is, as the last request left it (or an estimate before any). */
export interface ContextUsage {
  model: string
  totalTokens: number
  maxTokens: number
  percentage: number
  /** True when no request was sent yet and the figure is estimated from the history's size. */
  isEstimate: boolean
  categories: { name: string; tokens: number }[]
}

/** What `Query.interrupt` answers (the Agent SDK's interrupt receipt): the uuids of the user messages still waiting, or dropped. */
export interface InterruptReceipt {
  still_queued: string[]
  cancelled?: string[]
}

/** Aborts the running turn (if any); with `cancel_queued`, the user messages waiting behind it are dropped too. */
export function interruptTurn(session: Session, options: { cancel_queued?: boolean } = {}): InterruptReceipt {
  session.turnAbort?.abort(new Error('interrupted'))
  if (options.cancel_queued === true) return { still_queued: [], cancelled: session.input?.cancel() ?? [] }
  return { still_queued: session.input?.waiting() ?? [] }
}

export function setPermissionMode(session: Session, mode: string): PermissionMode {
  if (!(PERMISSION_MODES as readonly string[]).includes(mode)) {
    throw new ModloopError('MODLOOP_ERR_USAGE', `setPermissionMode: "${mode}" is not a permission mode (one of ${PERMISSION_MODES.join(', ')})`, { field: 'mode' })
  }
  // Starting in bypassPermissions (the CLI's --dangerously-skip-permissions) is that same opt-in.
  const { options } = session.root
  if (mode === 'bypassPermissions' && options.allowDangerouslySkipPermissions !== true && options.permissionMode !== 'bypassPermissions') {
    throw new ModloopError('MODLOOP_ERR_USAGE', 'setPermissionMode: "bypassPermissions" needs the session to be started with allowDangerouslySkipPermissions: true', { field: 'mode' })
  }
  session.permissionMode = mode
  session.host.state.set(PERMISSION_MODE_REF.plugin, PERMISSION_MODE_REF, mode)
  return mode as PermissionMode
}

/**
 * The permission mode in force: what the permissions mod applies when it publishes its api (its
 * settings' `defaultMode` and any switch since included), else the session's own.
 */
export function permissionModeInForce(session: Session): string {
  const api = session.root.host.state.get({ plugin: 'permissions', key: 'api' }).value as { mode?: () => string } | undefined
  return typeof api?.mode === 'function' ? api.mode() : session.permissionMode
}

export function supportedCommands(session: Session): SlashCommand[] {
  return [...session.commands.values()].map((c) => ({ name: c.name, description: c.description, argumentHint: c.argumentHint ?? '' }))
}

/** The mcp mod publishes its servers' statuses as `$.state`; without it there are none. */
export function mcpServerStatus(session: Session): McpServerStatus[] {
  const { value } = session.host.state.get({ plugin: 'mcp', key: 'servers' })
  return Array.isArray(value) ? (value as McpServerStatus[]).map((s) => ({ ...s })) : []
}

export function getContextUsage(session: Session): ContextUsage {
  const maxTokens = contextWindow(session.model)
  const u = session.lastUsage
  const categories: { name: string; tokens: number }[] = []
  let totalTokens: number
  if (u) {
    const input = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens
    categories.push({ name: 'Sent with the last request', tokens: input }, { name: 'Last response', tokens: u.output_tokens })
    totalTokens = input + u.output_tokens
  } else {
    totalTokens = session.meter.tokens()
    categories.push({ name: 'Messages (estimated)', tokens: totalTokens })
  }
  categories.push({ name: 'Free space', tokens: Math.max(0, maxTokens - totalTokens) })
  return { model: session.model, totalTokens, maxTokens, percentage: Math.round((totalTokens / maxTokens) * 100), isEstimate: !u, categories }
}

export async function rewindFiles(session: Session, userMessageId: string, options: { dryRun?: boolean } = {}): Promise<RewindFilesResult> {
  const { value } = session.host.state.get(REWIND_REF)
  if (typeof value !== 'function') {
    return { canRewind: false, error: 'File checkpointing is not enabled for this session (enableFileCheckpointing, or --checkpoint).' }
  }
  return (value as RewindService)(userMessageId, options)
}
