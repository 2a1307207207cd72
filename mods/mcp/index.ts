import { defineMod } from '../../core/mod/define.js'
import type { ModApi } from '../../core/mod/api.js'
import type { McpManager } from './manager.js'
import { envConnectTimeoutMs, mcpOptions, type McpOptions } from './options.js'
import { approvedServers, projectServers } from './approvals.js'
import { collectServers, NOT_APPROVED, type ServerEntry } from './sources.js'
import { choicesFrom } from './settings-choices.js'
import { serverPolicy } from './server-policy.js'
import { readSettingsSources, type SettingsSource } from '../permissions/settings-sources.js'
import { settingsReader } from '../_shared/settings-reader.js'
import { settingsHome } from '../_shared/settings-home.js'
import { expandPrompt, missingArguments } from './prompts.js'
import { trustStorePath } from '../permissions/trust-store.js'
import { projectTrust } from './trust.js'
import { loadedPlugins } from '../_shared/loaded-plugins.js'
import '../_shared/elicitation-hooks.js'
import { mcpControl } from './control.js'
import { describeError } from '../../core/errors.js'
import { registerCommands } from '../_shared/register-command.js'

const NONE = 'No MCP servers are configured.'
// session.start's budget is 10 s: waiting longer would get this mod reported and skipped.
const MAX_STARTUP_WAIT_MS = 9_000
// The first prompt's wait for servers ends at the connect timeout, at most a minute; its handler's
// budget (fixed when the mod registers, before the environment can be read) is a little longer.
const MAX_PROMPT_WAIT_MS = 60_000
const PROMPT_WAIT_SLACK_MS = 2_000
// Each server is closed, then signalled (connection.ts shutdown: at most 2.2 s), all at once.
const SHUTDOWN_MS = 3_000

/**
 * MCP servers: connects the servers of `.claude.json`, the modloop config, `.mcp.json` and
 * `query()` options; offers their tools as `mcp__<server>__<tool>`; reports their status in the
 * `init` message and through `/mcp`; closes every client and child process when the session ends.
 */
export default defineMod({
  name: 'mcp',
  description: 'MCP servers and their tools',
  options: mcpOptions,
  // The config's servers join the option's; a server of the same name in the option wins.
  configKeys: {
    mcpServers: (options, value) => {
      const own = options ?? {}
      const servers = typeof own.servers === 'object' && own.servers !== null ? own.servers : {}
      return { ...own, servers: { ...(value as Record<string, unknown>), ...servers } }
    },
  },
  provides: ['serverStatus', 'mcpControl'],
  // transcriptFile: outputs over the limit are saved beside the transcript; permissions: the session's directories, a server's roots.
  uses: { loadedPlugins: 'optional', transcriptFile: 'optional', permissions: 'optional', settingsFiles: 'optional', elicitationHooks: 'optional' },
  register(on, opts, $) {
    let manager: McpManager | undefined
    let cwd: string | undefined
    $.capability.provide('serverStatus', () => manager?.statuses() ?? [])
    // A session that started with no servers gets a manager once one is asked for (setMcpServers).
    $.capability.provide('mcpControl', mcpControl(async () => {
      if (manager) return manager
      if (cwd === undefined) throw new Error('the session has not started')
      const { McpManager } = await import('./manager.js')
      return (manager = new McpManager($, [], { cwd, connectTimeoutMs: connectTimeout($, opts) }))
    }))

    // Headless, the first prompt waits for servers still connecting, as Claude Code's `-p` does: a
    // slow server (an `npx` one on a cold cache) would otherwise miss the one turn there is.
    let waitFirstPrompt = false
    on('prompt.submit', async ($, e, next) => {
      if (waitFirstPrompt && manager?.hasPending()) await manager.ready(Math.min(connectTimeout($, opts), MAX_PROMPT_WAIT_MS))
      waitFirstPrompt = false
      return next(e)
    }, { budgetMs: MAX_PROMPT_WAIT_MS + PROMPT_WAIT_SLACK_MS })

    on('session.start', async ($, e, next) => {
      cwd = e.cwd
      waitFirstPrompt = !e.isInteractive
      const started = Date.now()
      await manager?.close()
      manager = undefined
      const pending = open($, opts, e.cwd, e.isInteractive).catch((err) => {
        $.log.error(`MCP servers could not be set up: ${describeError(err)}`)
        return undefined
      })
      const result = await next(e)
      manager = await pending
      await manager?.start(Math.max(0, Math.min(opts.startupTimeoutMs, MAX_STARTUP_WAIT_MS) - (Date.now() - started)))
      return result
    })

    // This mod loads before tool-search, so its word is last: an alwaysLoad tool is never deferred.
    on('tool.describe', async (_$, e, next) => {
      const r = await next(e)
      return manager?.alwaysLoads(e.tool) ? { ...r, isDeferred: false } : r
    })

    on('command.run', { command: 'mcp' }, () => ({ output: manager?.describe() ?? NONE }))
    on('command.run', async (_$, e, next) => {
      const command = manager?.prompts.get(e.command)
      if (!command) return next(e)
      // Claude Code reports a usage error as a command's answer, not as a failed run.
      const missing = missingArguments(command, e.args)
      if (missing) return { deny: missing, isError: false }
      try {
        const save = manager?.saveFile.bind(manager)
        return await expandPrompt(command, e.args, (file, bytes, what) => save?.(file, bytes, what, 'it is only named') ?? Promise.resolve(undefined))
      } catch (err) {
        return { deny: `/${e.command}: ${describeError(err)}` }
      }
    })

    on('session.end', async (_$, e, next) => {
      const closing = manager?.close()
      manager = undefined
      await closing
      return next(e)
    }, { budgetMs: SHUTDOWN_MS })

    return async () => {
      await manager?.close()
      manager = undefined
    }
  },
})

/** Reads every source, registers `/mcp`, and starts the manager (its connections begin in `start`). */
async function open($: ModApi, opts: McpOptions, cwd: string, isInteractive: boolean): Promise<McpManager | undefined> {
  let flags: { trustWorkspace?: unknown } = {}
  try {
    flags = (await $.settings.read({ source: 'flag' })) as typeof flags
  } catch (err) {
    $.log.warn(`the launch options cannot be read (${describeError(err)}); query() mcpServers are not seen`)
  }
  const env = (name: string) => $.env.get(name)
  const store = trustStorePath({ trustStore: opts.trustStore }, { MODLOOP_HOME: env('MODLOOP_HOME') })
  const unreviewed: string[] = []
  // The settings files, read once for the .mcp.json choices and the server lists, and only when a server is configured.
  let settingsRead: Promise<readonly SettingsSource[]> | undefined
  const home = settingsHome($, opts.home)
  const settings = () => settingsRead ??= readSettingsSources({
    cwd, places: { ...(home ? { home } : {}), ...(opts.managedDir !== undefined ? { managedDir: opts.managedDir } : {}) }, flags, env: $.env.all(), reader: settingsReader($),
  }).then((r) => r.sources)
  const collected = await collectServers({
    cwd, options: opts, flags, env, plugins: loadedPlugins($),
    projectTrust: () => projectTrust({ cwd, isInteractive, trustFlag: flags.trustWorkspace === true, headlessTrust: opts.trustProjectServers, trustStore: opts.trustStore, env }),
    projectChoice: () => settings().then(choicesFrom).catch((err) => {
      $.log.warn(`the settings' enabledMcpjsonServers and disabledMcpjsonServers could not be read: ${describeError(err)}`)
      return () => undefined
    }),
    projectApproved: async () => {
      if (flags.trustWorkspace === true) return () => true
      const approved = await approvedServers(store, cwd).catch(() => new Set<string>())
      // As with project hooks: the terminal asks before the session and what was declined stays
      // out; a run with no one to ask starts them and says which were not approved.
      if (isInteractive) return (fingerprint) => approved.has(fingerprint)
      return (fingerprint) => {
        if (!approved.has(fingerprint)) unreviewed.push(fingerprint)
        return true
      }
    },
  })
  const { servers, warnings } = collected.servers.length > 0 ? await withoutBlocked($, collected, settings) : collected
  for (const warning of warnings) $.log.warn(warning)
  for (const s of servers) if (s.error) $.log.warn(s.error)
  for (const s of servers) if (s.disabled?.startsWith(NOT_APPROVED)) $.log.warn(`MCP server "${s.name}" not started: ${s.disabled}`)
  if (unreviewed.length > 0) {
    // Only what will start: not a server whose config failed, nor one a later scope replaced.
    const starting = (name: string) => servers.some((s) => s.name === name && s.scope === 'project' && s.config && !s.error && !s.disabled)
    for (const s of (await projectServers(cwd, store).catch(() => [])).filter((p) => unreviewed.includes(p.fingerprint) && starting(p.name))) {
      $.log.warn(`started a project MCP server not yet approved in this workspace: "${s.name}" (${s.summary}; ${s.file}); start modloop in ${cwd} to approve it`)
    }
  }
  await registerCommands($, [{ name: 'mcp', description: 'Show the MCP servers, their status and their tools', kind: 'local' }])
  // The MCP SDK loads only for a session that has servers.
  if (servers.length === 0) return undefined
  const { McpManager } = await import('./manager.js')
  return new McpManager($, servers, { cwd, connectTimeoutMs: connectTimeout($, opts) })
}

/**
 * The servers the settings' allowedMcpServers and deniedMcpServers let start; the others are left
 * out of the session (not listed, as Claude Code leaves them out), with one warning naming them.
 */
async function withoutBlocked($: ModApi, collected: { servers: ServerEntry[]; warnings: string[] }, settings: () => Promise<readonly SettingsSource[]>) {
  const blocked = await settings().then(serverPolicy).catch((err) => {
    $.log.warn(`the settings' allowedMcpServers and deniedMcpServers could not be read: ${describeError(err)}`)
    return undefined
  })
  if (!blocked) return collected
  const out = collected.servers.filter((s) => s.config && blocked(s.name, s.config)).map((s) => s.name)
  if (out.length === 0) return collected
  const warning = `MCP server${out.length === 1 ? '' : 's'} blocked by the settings' allowedMcpServers or deniedMcpServers, not started: ${out.join(', ')}`
  return { servers: collected.servers.filter((s) => !out.includes(s.name)), warnings: [...collected.warnings, warning] }
}

function connectTimeout($: ModApi, opts: McpOptions): number {
  return opts.connectTimeoutMs ?? envConnectTimeoutMs($.env.get('MCP_TIMEOUT'))
}
