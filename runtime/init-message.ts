import { basename, dirname, join } from 'node:path'
import { VERSION } from '../core/version.js'
import type { SDKSystemInit } from '../core/loop/messages.js'
import type { Session } from '../core/loop/session.js'
import './loader/config-hooks.js'
import { configRows } from './model-controls.js'
import { outputStyleOf } from './output-style.js'
import { permissionModeInForce } from './permission-mode.js'
import { mcpServerStatus } from './server-status.js'

/** The `system`/`init` message that opens each turn's stream: what the session has loaded and offers. */
export async function initMessage(session: Session): Promise<SDKSystemInit> {
  // The tools the model is offered: one a deny rule hides (`disallowedTools: ['Grep']`) is not listed.
  const tools = (await session.toolDefinitions()).map((d) => d.name)
  return session.stamp({
    type: 'system' as const,
    subtype: 'init' as const,
    cwd: session.cwd,
    tools,
    // `source` (sdk, plugin, or the config scope) as the Agent SDK gives it: hosts key trust on it.
    mcp_servers: mcpServerStatus(session).map((s) => ({ name: s.name, status: s.status, ...(typeof s.source === 'string' ? { source: s.source } : {}) })),
    model: session.model,
    permissionMode: permissionModeInForce(session),
    slash_commands: [...session.root.commands.keys()],
    apiKeySource: session.env.ANTHROPIC_API_KEY ? 'ANTHROPIC_API_KEY' : 'none',
    claude_code_version: VERSION,
    modloop_version: VERSION,
    output_style: outputStyleOf(session),
    skills: [...session.root.commands.values()].filter((c) => c.kind === 'skill').map((c) => c.name),
    agents: [...session.root.agentTypes.keys()],
    // A plugin the settings enabled is `name@marketplace`; one loaded from a directory named is `name@inline` to Claude Code.
    plugins: (session.host.capabilities.get('loadedPlugins') ?? []).map((p) => ({ name: p.name, path: p.root, source: p.id ?? `${p.name}@inline`, ...(p.version ? { version: p.version } : {}) })),
    ...pluginErrorsOf(session),
    mods: session.host.list().filter((m) => m.status === 'loaded').map((m) => ({ name: m.name, source: m.source, version: m.version })),
    ...effortOf(session),
    ...titleOf(session),
    capabilities: ['interrupt_receipt_v1', 'interrupt_cancel_queued_v1', 'mcp_read_resource_v1'],
  })
}

/**
 * Plugins that could not be loaded (spec §2.2 `plugin_errors`), so an SDK host sees which failed
 * and why, not only the line on stderr: the plugin's directory, its name as that directory's, and
 * the error. Absent when every plugin loaded.
 */
function pluginErrorsOf(session: Session): { plugin_errors?: { plugin: string; type: string; message: string; path: string }[] } {
  const failed = session.host.errors.filter((e) => e.code === 'MODLOOP_ERR_PLUGIN')
  if (failed.length === 0) return {}
  return {
    plugin_errors: failed.map((e) => {
      const file = e.file ?? ''
      const root = file.endsWith(join('.claude-plugin', 'plugin.json')) ? dirname(dirname(file)) : file
      return { plugin: basename(root), type: 'generic-error', message: e.message, path: root }
    }),
  }
}

// The title a new session was given at launch (`-n`); a resumed one keeps its own, not shown here.
function titleOf(session: Session): { title?: string } {
  const o = session.options
  const title = o.title?.trim()
  return title && (!(o.resume || o.continue) || o.forkSession) ? { title } : {}
}

function effortOf(session: Session): { effort?: string } {
  const effort = configRows(session).find((r) => r.key === 'effort')?.value
  return typeof effort === 'string' ? { effort } : {}
}
