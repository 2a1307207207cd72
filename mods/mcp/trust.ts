import { trustedBy, trustStorePath } from '../permissions/trust-store.js'
import { describeError } from '../../core/errors.js'

export interface TrustInput {
  cwd: string
  isInteractive: boolean
  /** `--trust-workspace` (the launch flags' `trustWorkspace`). */
  trustFlag: boolean
  /** The mod's `trustProjectServers`: whether a non-interactive run counts as trusted. */
  headlessTrust: boolean
  trustStore?: string
  env: (name: string) => string | undefined
}

/**
 * Whether the project's `.mcp.json` servers may start: the same rule as project hooks. The
 * workspace is trusted when `modloop trust` recorded it (or a parent), when the run was started
 * with `--trust-workspace`, or — in a run with no one to ask — unless the mod was told otherwise.
 */
export async function projectTrust(input: TrustInput): Promise<{ trusted: boolean; why?: string }> {
  if (input.trustFlag) return { trusted: true }
  const file = trustStorePath({ trustStore: input.trustStore }, { MODLOOP_HOME: input.env('MODLOOP_HOME') })
  let recorded: string | undefined
  let problem = ''
  try {
    recorded = await trustedBy(file, input.cwd)
  } catch (err) {
    problem = ` (${describeError(err)})`
  }
  if (recorded) return { trusted: true }
  if (!input.isInteractive && input.headlessTrust) return { trusted: true }
  return { trusted: false, why: `the workspace is not trusted${problem}: run \`modloop trust\` or pass --trust-workspace to start project servers from .mcp.json` }
}
