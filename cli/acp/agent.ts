import { stat } from 'node:fs/promises'
import { isAbsolute } from 'node:path'
import { agent, PROTOCOL_VERSION, RequestError, type AgentApp, type AgentContext, type ClientCapabilities, type McpServer } from '@agentclientprotocol/sdk'
import { isModloopError } from '../../core/errors.js'
import type { QueryOptions } from '../../runtime/options.js'
import { VERSION } from '../../core/version.js'
import { mcpServersOf } from './mcp-servers.js'
import { replayUpdates } from './replay.js'
import { AcpSession } from './session.js'

const API_KEY_METHOD = 'anthropic-api-key'

/**
 * modloop as an ACP agent: every session the editor opens is a modloop session of the same
 * distribution and command-line options, in the cwd the editor gives. Errors the protocol
 * defines answer bad requests (unknown session, a prompt while one runs, bad params); the
 * connection goes on serving.
 */
export function modloopAgent(base: QueryOptions, log: (line: string) => void): { app: AgentApp; closeAll(): Promise<void> } {
  const sessions = new Map<string, AcpSession>()
  let caps: ClientCapabilities | undefined
  const env = base.env ?? process.env

  const sessionOf = (sessionId: string): AcpSession => {
    const session = sessions.get(sessionId)
    if (!session) throw RequestError.sessionNotFound(sessionId)
    return session
  }
  const open = async (client: AgentContext, cwd: string, mcpServers: readonly McpServer[], more: Partial<QueryOptions>) => {
    await checkCwd(cwd)
    const editorServers = mcpServersOf(mcpServers)
    const options = { ...base, ...more, cwd, ...(editorServers ? { mcpServers: { ...base.mcpServers, ...editorServers } } : {}) }
    const session = await AcpSession.open({ client, caps, options, log })
    sessions.set(session.id, session)
    // Told once the editor knows the session (after this answer), and again when they change.
    setImmediate(() => void session.announceCommands().catch(() => {}))
    return session
  }

  const app = agent({ name: 'modloop' })
    .onRequest('initialize', ({ params }) => {
      caps = params.clientCapabilities
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
        },
        agentInfo: { name: 'modloop', title: 'modloop', version: VERSION },
        authMethods: [{ id: API_KEY_METHOD, name: 'Anthropic API key', description: 'Set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN) in the environment the editor starts modloop with' }],
      }
    })
    .onRequest('authenticate', ({ params }) => {
      if (params.methodId !== API_KEY_METHOD) throw RequestError.invalidParams({ methodId: params.methodId }, `unknown authentication method "${params.methodId}" (the one offered: ${API_KEY_METHOD})`)
      if (!env.ANTHROPIC_API_KEY && !env.ANTHROPIC_AUTH_TOKEN) throw RequestError.authRequired(undefined, 'ANTHROPIC_API_KEY is not set in the environment modloop was started with')
      return {}
    })
    .onRequest('session/new', async ({ params, client }) => {
      const session = await open(client, params.cwd, params.mcpServers, {})
      return { sessionId: session.id, modes: session.modes() }
    })
    .onRequest('session/load', async ({ params, client }) => {
      await checkCwd(params.cwd)
      // Open here, it closes first: a prompt it runs answers `cancelled` and its end is recorded, so the replay shows it.
      await sessions.get(params.sessionId)?.close()
      sessions.delete(params.sessionId)
      let updates
      try {
        updates = await replayUpdates(params.sessionId, params.cwd, env)
      } catch (err) {
        if (isModloopError(err, 'MODLOOP_ERR_SESSION')) throw RequestError.sessionNotFound(params.sessionId)
        throw err
      }
      for (const update of updates) await client.notify('session/update', { sessionId: params.sessionId, update })
      const session = await open(client, params.cwd, params.mcpServers, { resume: params.sessionId, sessionId: undefined })
      return { modes: session.modes() }
    })
    .onRequest('session/prompt', async ({ params }) => ({ stopReason: await sessionOf(params.sessionId).prompt(params.prompt) }))
    .onNotification('session/cancel', async ({ params }) => { await sessions.get(params.sessionId)?.cancel() })
    .onRequest('session/set_mode', async ({ params }) => {
      await sessionOf(params.sessionId).setMode(params.modeId)
      return {}
    })

  return {
    app,
    closeAll: async () => {
      await Promise.all([...sessions.values()].map((s) => s.close().catch(() => {})))
      sessions.clear()
    },
  }
}

/** The folder a session runs in: absolute, and there (else the session would start, then fail every tool call: Bash "spawn bash ENOENT"). */
async function checkCwd(cwd: string): Promise<void> {
  if (!isAbsolute(cwd)) throw RequestError.invalidParams({ cwd }, `cwd must be an absolute path, not "${cwd}"`)
  const isDir = await stat(cwd).then((st) => st.isDirectory(), () => false)
  if (!isDir) throw RequestError.invalidParams({ cwd }, `cwd ${cwd} is not an existing directory`)
}
