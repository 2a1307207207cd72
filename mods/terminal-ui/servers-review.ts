import type { Distribution } from '../../runtime/loader/types.js'
import { approveServers, projectServers } from '../mcp/approvals.js'
import type { McpOptions } from '../mcp/options.js'
import { settingsChoices } from '../mcp/settings-choices.js'
import { trustStorePath } from '../permissions/trust-store.js'
import { askApproval } from './approval-ask.js'
import type { App } from './app.js'
import type { Paint } from './color.js'
import type { MessageView } from './message-view.js'
import { describeError } from '../../core/errors.js'

const SHOWN = 6

export interface ServersReviewInput {
  dist: Distribution
  cwd: string
  env: Record<string, string | undefined>
  /** `--trust-workspace`: every project server runs, nothing to ask. */
  trustWorkspace?: boolean
  /** Fingerprints declined earlier in this terminal run: not asked about again until it ends. */
  declined: Set<string>
}

/**
 * Asks once per new or changed `.mcp.json` server before the session starts (the mcp mod starts
 * them with it): approving records their fingerprints, declining starts the session without them.
 * Trusting the folder is not enough: a server added to the file later runs a new command.
 */
export async function reviewProjectServers(app: App, view: MessageView, paint: Paint, input: ServersReviewInput): Promise<void> {
  const mod = input.dist.host.get('mcp')
  if (mod?.status !== 'loaded' || input.trustWorkspace) return
  const opts = mod.options as Partial<McpOptions>
  const store = trustStorePath({ trustStore: opts.trustStore }, { MODLOOP_HOME: input.env.MODLOOP_HOME })
  let servers: Awaited<ReturnType<typeof projectServers>>
  try {
    // A server the settings approve or turn off (enabledMcpjsonServers, …) is not asked about.
    const choice = await settingsChoices({ cwd: input.cwd, home: opts.home, flags: {}, env: input.env })
    servers = (await projectServers(input.cwd, store)).filter((s) => !s.approved && !input.declined.has(s.fingerprint) && !opts.disabled?.includes(s.name) && choice(s.name) === undefined)
  } catch (err) {
    void view.print(paint.yellow(`the MCP servers of .mcp.json could not be reviewed: ${describeError(err)}`))
    return
  }
  const n = servers.length
  if (n === 0) return
  const rows = servers.slice(0, SHOWN).map((s) => `  ${s.name}: ${s.summary.replace(/\s+/g, ' ')}`)
  if (n > SHOWN) rows.push(`  … and ${n - SHOWN} more (/mcp lists them)`)
  await askApproval(app, view, paint, {
    noun: ['MCP server', 'MCP servers'], article: 'An', from: 'of .mcp.json', rows,
    warning: 'A project MCP server runs a command on your machine or sends data to a server.',
    verb: 'start', fingerprints: servers.map((s) => s.fingerprint), declined: input.declined,
    approve: (fingerprints) => approveServers(store, input.cwd, fingerprints), store,
    approvedFor: `of .mcp.json for ${input.cwd}`, keptOff: 'the servers stay off',
  })
}
