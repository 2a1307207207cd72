import type { Verdict } from './types.js'

/**
 * What the permissions mod offers other mods as the `permissions` capability: `persistUpdate`
 * applies a canUseTool `updatedPermissions` entry (see persist.ts), `check` answers a verdict with
 * its deciding rule and source, `directories` lists the session's extra working directories
 * (absolute paths) so the file tools accept what the policy counts as inside, `deniedPaths` tests
 * the files a deny rule keeps a tool from reading (undefined when none does) so a search leaves
 * them out, `grantDirectory` lets the file tools read and write in a directory a mod keeps for the
 * model (the auto memory) without asking — deny and ask rules still come first — until the
 * disposer it resolves to is called. The mode itself is the core-declared `permissionMode`
 * capability, which this mod also provides.
 */
export interface PermissionsApi {
  persistUpdate(update: unknown): Promise<{ file?: string }>
  check(tool: string, input: unknown): Promise<Verdict>
  directories(): string[]
  deniedPaths(tool: string): ((path: string) => boolean) | undefined
  grantDirectory(dir: string): Promise<() => void>
}

declare module '../../core/mod/capabilities.js' {
  interface Capabilities {
    permissions: PermissionsApi
  }
}
