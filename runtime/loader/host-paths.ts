import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { ModloopError } from '../../core/errors.js'
import { PACKAGE_ROOT } from '../../core/version.js'

export interface HostPaths {
  /** The host's own entry: the repo's `index.ts` when running from source, `dist/index.js` from a build. */
  entry: string
  /** `testing.ts|js` beside the entry, when it exists. */
  testing?: string
  /** The directory of the zod package the host itself uses. */
  zodDir: string
}

// From source (vitest) this file is TypeScript and the entry is the repo's index.ts; from a build
// (tsc output or the CLI bundle) the entry is dist/index.js.
const FROM_SOURCE = import.meta.url.endsWith('.ts')

function beside(stem: string): string | undefined {
  const file = FROM_SOURCE ? join(PACKAGE_ROOT, `${stem}.ts`) : join(PACKAGE_ROOT, 'dist', `${stem}.js`)
  return existsSync(file) ? file : undefined
}

let cached: HostPaths | undefined

/** Where `modloop`, `modloop/testing` and `zod` point for mods, so mods need no node_modules of their own. */
export function hostPaths(): HostPaths {
  if (cached) return cached
  const entry = beside('index')
  if (!entry) throw new ModloopError('MODLOOP_ERR_MOD_IMPORT', `modloop cannot find its own entry (index.ts or dist/index.js) in ${PACKAGE_ROOT}; the installation is incomplete`)
  const zodDir = dirname(createRequire(import.meta.url).resolve('zod/package.json'))
  cached = { entry, testing: beside('testing'), zodDir }
  return cached
}
