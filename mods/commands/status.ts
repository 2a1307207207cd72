import type { ModApi } from '../../core/mod/api.js'
import { VERSION } from '../../core/version.js'

/**
 * `/status`: what this session runs as — modloop's version, the session, its folder, model and
 * permission mode, and each MCP server's state — where a person checks before asking why.
 */
export function statusText($: ModApi): string {
  const servers = $.capability.use('serverStatus')?.() ?? []
  const mode = $.capability.use('permissionMode')?.mode()
  return [
    `modloop ${VERSION}`,
    `Session:         ${String($.session.id())}`,
    `Directory:       ${String($.session.cwd())}`,
    `Model:           ${String($.session.model())}`,
    ...(mode ? [`Permission mode: ${mode}`] : []),
    `MCP servers:     ${servers.length === 0 ? 'none' : servers.map((s) => `${s.name} (${s.status})`).join(', ')}`,
  ].join('\n')
}
