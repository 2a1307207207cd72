import { nodeCrypto } from '../../core/random.js'
import type { HooksConfig, LoadedHookSources, ResolvedHandler } from '../../hooks-runner/index.js'
import { approvedFingerprints, approveFingerprints, trustStorePath } from '../permissions/trust-store.js'

/** One project-level hook as a reviewer sees it, with the fingerprint its approval is keyed by. */
export interface ProjectHookFingerprint {
  fingerprint: string
  event: string
  matcher: string
  /** The command line, URL, `server/tool` or prompt head. */
  command: string
  file: string
  approved: boolean
}

export { trustStorePath }

/** Project and local settings files (and the config in the project) are what a cloned repository can bring. */
export const isProjectLevel = (h: ResolvedHandler) => h.source.kind === 'project' || h.source.kind === 'local'

/** A hook's identity for review: its event, matcher and what it runs. Any change makes it a new hook. */
export function fingerprintOf(h: ResolvedHandler): string {
  return nodeCrypto().createHash('sha256').update(JSON.stringify([h.event, h.matcher ?? '', h.config.type, h.name])).digest('hex').slice(0, 16)
}

/**
 * The project-level hooks of a config with whether each was approved for this workspace, so an
 * interactive front end can ask once per new or changed hook. Headless runs do not ask: they run
 * these hooks and report the unapproved ones that ran.
 */
export async function projectHookFingerprints(config: HooksConfig, workspace: string, storeFile: string): Promise<ProjectHookFingerprint[]> {
  const approved = await approvedProjectHooks(storeFile, workspace)
  return config.handlers.filter(isProjectLevel).map((h) => {
    const fingerprint = fingerprintOf(h)
    return { fingerprint, event: h.event, matcher: h.matcher ?? '', command: h.name, file: h.source.file, approved: approved.has(fingerprint) }
  })
}

/**
 * The fingerprints approved for the workspace, read from the store without hashing a hook: a run
 * that never fires a project hook then never loads node:crypto (~7 ms here).
 */
export const approvedProjectHooks = (storeFile: string, workspace: string): Promise<Set<string>> => approvedFingerprints(storeFile, 'hooks', workspace)

/** The sources without their project-level hooks that are not approved, and those left out. */
export function withoutUnapproved(loaded: LoadedHookSources, approved: ReadonlySet<string>): { loaded: LoadedHookSources; skipped: ResolvedHandler[] } {
  const skipped = loaded.config.handlers.filter((h) => isProjectLevel(h) && !approved.has(fingerprintOf(h)))
  if (skipped.length === 0) return { loaded, skipped }
  const handlers = loaded.config.handlers.filter((h) => !skipped.includes(h))
  return { loaded: { ...loaded, config: { ...loaded.config, handlers } }, skipped }
}

/** Records approval of these fingerprints for the workspace; the rest of the trust store is kept. */
export const approveProjectHooks = (storeFile: string, workspace: string, fingerprints: readonly string[]): Promise<void> =>
  approveFingerprints(storeFile, 'hooks', workspace, fingerprints)
