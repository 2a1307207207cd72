import type { Verdict } from './types.js'

/**
 * What the permissions mod offers other mods as the `permissions` capability: `persistUpdate`
 * applies a canUseTool `updatedPermissions` entry (see persist.ts), `check` answers a verdict with
 * its deciding rule and source, `directories` lists the session's extra working directories
 * (absolute paths) so the file tools accept what the policy counts as inside. The mode itself is
 * the core-declared `permissionMode` capability, which this mod also provides.
 */
export interface PermissionsApi {
  persistUpdate(update: unknown): Promise<{ file?: string }>
  check(tool: string, input: unknown): Promise<Verdict>
  directories(): string[]
}

declare module '../../core/mod/capabilities.js' {
  interface Capabilities {
    permissions: PermissionsApi
  }
}
