import type { Distribution } from '../../core/loader/types.js'
import { approveServers, projectServers } from '../mcp/approvals.js'
import type { McpOptions } from '../mcp/options.js'
import { trustStorePath } from '../permissions/trust-store.js'
import type { App } from './app.js'
import type { Paint } from './color.js'
import type { MessageView } from './message-view.js'

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
    servers = (await projectServers(input.cwd, store)).filter((s) => !s.approved && !input.declined.has(s.fingerprint) && !opts.disabled?.includes(s.name))
  } catch (err) {
    void view.print(paint.yellow(`the MCP servers of .mcp.json could not be reviewed: ${(err as Error).message}`))
    return
  }
  const n = servers.length
  if (n === 0) return
  const rows = servers.slice(0, SHOWN).map((s) => `  ${s.name}: ${s.summary.replace(/\s+/g, ' ')}`)
  if (n > SHOWN) rows.push(`  … and ${n - SHOWN} more (/mcp lists them)`)
  const { value } = await app.choose([
    `${n === 1 ? 'An MCP server' : `${n} MCP servers`} of .mcp.json, new or changed, not approved yet:`,
    ...rows,
    'A project MCP server runs a command on your machine or sends data to a server.',
  ], [
    { label: n === 1 ? 'Yes, start it (asked again if it changes)' : 'Yes, start them (asked again if they change)', value: true },
    { label: n === 1 ? 'No, start without it' : 'No, start without them', value: false },
  ], false)
  if (!value) {
    for (const s of servers) input.declined.add(s.fingerprint)
    void view.print(paint.yellow(`Not approved: this session runs without ${n === 1 ? 'it' : 'them'}; the next start asks again.`))
    return
  }
  try {
    await approveServers(store, input.cwd, servers.map((s) => s.fingerprint))
    void view.print(paint.dim(`Approved ${n} MCP server${n === 1 ? '' : 's'} of .mcp.json for ${input.cwd}.`))
  } catch (err) {
    void view.print(paint.red(`the approval could not be saved in ${store}: ${(err as Error).message}; the servers stay off`))
  }
}
