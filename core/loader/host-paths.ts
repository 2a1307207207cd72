import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ModloopError } from '../errors.js'

export interface HostPaths {
  /** The host's own entry: the repo's `index.ts` when running from source, `dist/index.js` from a build. */
  entry: string
  /** `testing.ts|js` beside the entry, when it exists. */
  testing?: string
  /** The directory of the zod package the host itself uses. */
  zodDir: string
}

// From source this file is core/loader/host-paths.ts; from a build it is dist/core/loader/host-paths.js.
// Either way the entry sits two levels up, with the suffix of whichever form is present.
function beside(base: string): string | undefined {
  const stem = fileURLToPath(new URL(base, import.meta.url))
  for (const ext of ['.ts', '.js']) if (existsSync(stem + ext)) return stem + ext
  return undefined
}

let cached: HostPaths | undefined

/** Where `modloop`, `modloop/testing` and `zod` point for mods, so mods need no node_modules of their own. */
export function hostPaths(): HostPaths {
  if (cached) return cached
  const entry = beside('../../index')
  if (!entry) throw new ModloopError('MODLOOP_ERR_MOD_IMPORT', `modloop cannot find its own entry (index.ts or index.js) above ${fileURLToPath(import.meta.url)}; the installation is incomplete`)
  const zodDir = dirname(createRequire(import.meta.url).resolve('zod/package.json'))
  cached = { entry, testing: beside('../../testing'), zodDir }
  return cached
}
