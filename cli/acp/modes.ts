import type { SessionMode, SessionModeState } from '@agentclientprotocol/sdk'
import { PERMISSION_MODES } from '../../core/permission-modes.js'

const MODES: Record<(typeof PERMISSION_MODES)[number], Omit<SessionMode, 'id'>> = {
  default: { name: 'Default', description: 'Ask before each tool call no rule allows' },
  acceptEdits: { name: 'Accept edits', description: 'File edits in the working directories run without asking' },
  plan: { name: 'Plan', description: 'Read and plan only: nothing is changed until the plan is accepted' },
  dontAsk: { name: "Don't ask", description: 'Tool calls no rule allows are denied instead of asked about' },
  auto: { name: 'Auto', description: 'A classifier decides the calls no rule decides' },
  bypassPermissions: { name: 'Bypass permissions', description: 'Every tool call runs without asking' },
}

/**
 * The permission modes as ACP session modes. Bypass is offered only to a session started in it
 * (`--dangerously-skip-permissions`), as switching into it needs that opt-in.
 */
export function sessionModes(current: string, bypassAllowed: boolean): SessionModeState {
  const ids = PERMISSION_MODES.filter((m) => m !== 'bypassPermissions' || bypassAllowed)
  return { currentModeId: current, availableModes: ids.map((id) => ({ id, ...MODES[id] })) }
}
