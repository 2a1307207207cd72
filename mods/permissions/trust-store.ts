import { readFile, realpath } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { isInside } from '../_shared/allowed-paths.js'
import { describeError } from '../../core/errors.js'
import { onFirstUse } from '../../core/on-first-use.js'
import { writeJsonAtomic } from '../_shared/json-file.js'

/**
 * Which workspaces the user trusts, kept under MODLOOP_HOME (default ~/.modloop) in
 * `trusted.json`, keyed by the workspace's real path. `modloop trust [dir]` writes it; the
 * permissions mod reads it. A trusted folder's subfolders are trusted too. Its schema is built on
 * first use: most runs find no such file.
 */
const storeSchema = onFirstUse(() => z.object({
  workspaces: z.record(z.string(), z.looseObject({ trustedAt: z.string() })).default({}),
}).loose())
export type TrustStore = z.output<ReturnType<typeof storeSchema>>

export interface TrustLocation {
  trustStore?: string
  home?: string
}

export function trustStorePath(where: TrustLocation, env: Record<string, string | undefined>): string {
  if (where.trustStore) return where.trustStore
  const modloopHome = env.MODLOOP_HOME || join(where.home ?? homedir(), '.modloop')
  return join(modloopHome, 'trusted.json')
}

export async function readTrustStore(file: string): Promise<TrustStore> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { workspaces: {} }
    throw err
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    throw new Error(`${file} is not valid JSON (${describeError(err)}); fix or remove it`)
  }
  const parsed = storeSchema().safeParse(json)
  if (!parsed.success) throw new Error(`${file} does not hold { "workspaces": { "<path>": { "trustedAt": "..." } } }: ${parsed.error.issues[0]?.message}`)
  return parsed.data
}

/** The trusted folder that covers `dir` (itself or a parent), if any. */
export async function trustedBy(file: string, dir: string): Promise<string | undefined> {
  const store = await readTrustStore(file)
  const real = await realpath(dir).catch(() => dir)
  return Object.keys(store.workspaces).find((w) => isInside(w, real))
}

/**
 * Whether a session in `cwd` honours what its project settings widen (allow rules, env, …):
 * --trust-workspace, or a trusted folder covering it. A store that cannot be read trusts nothing
 * and says so in `warnings`.
 */
export async function workspaceTrusted(cwd: string, trustFlag: boolean, where: TrustLocation, env: Record<string, string | undefined>, warnings: string[]): Promise<boolean> {
  if (trustFlag) return true
  try {
    return (await trustedBy(trustStorePath(where, env), cwd)) !== undefined
  } catch (err) {
    warnings.push(`the workspace trust store cannot be read: ${describeError(err)}`)
    return false
  }
}

/** Records (or, with `trusted: false`, removes) a workspace; answers its real path. */
export async function setTrust(file: string, dir: string, trusted: boolean): Promise<string> {
  const real = await realpath(dir)
  const store = await readTrustStore(file)
  if (trusted) store.workspaces[real] = { trustedAt: new Date().toISOString() }
  else delete store.workspaces[real]
  await writeTrustStore(file, store)
  return real
}

/** Writes the whole store through a temp file and a rename, so a reader never sees half of it. */
export async function writeTrustStore(file: string, store: TrustStore): Promise<void> {
  await writeJsonAtomic(file, store)
}

/** What a workspace approved, item by item: settings hooks (`hooks`) and `.mcp.json` servers (`mcpServers`). */
export type ApprovalKind = 'hooks' | 'mcpServers'
type Approvals = Record<string, Record<string, { approvedAt: string }>>

async function readApprovals(file: string, kind: ApprovalKind): Promise<{ store: TrustStore; approvals: Approvals }> {
  const store = await readTrustStore(file)
  const approvals = (store as Record<string, unknown>)[kind]
  return { store, approvals: typeof approvals === 'object' && approvals !== null ? (approvals as Approvals) : {} }
}

/** The fingerprints of `kind` approved for the workspace (by its real path). */
export async function approvedFingerprints(file: string, kind: ApprovalKind, workspace: string): Promise<Set<string>> {
  const { approvals } = await readApprovals(file, kind)
  return new Set(Object.keys(approvals[await realpath(workspace).catch(() => workspace)] ?? {}))
}

/** Records approval of these fingerprints of `kind` for the workspace; the rest of the store is kept. */
export async function approveFingerprints(file: string, kind: ApprovalKind, workspace: string, fingerprints: readonly string[]): Promise<void> {
  const { store, approvals } = await readApprovals(file, kind)
  const real = await realpath(workspace).catch(() => workspace)
  const now = new Date().toISOString()
  approvals[real] = { ...approvals[real], ...Object.fromEntries(fingerprints.map((f) => [f, { approvedAt: now }])) }
  await writeTrustStore(file, { ...store, [kind]: approvals })
}

/** Forgets every approval of `kind` for the workspace, so each is asked about again. */
export async function forgetFingerprints(file: string, kind: ApprovalKind, workspace: string): Promise<void> {
  const { store, approvals } = await readApprovals(file, kind)
  const real = await realpath(workspace).catch(() => workspace)
  if (!Object.hasOwn(approvals, real)) return
  delete approvals[real]
  await writeTrustStore(file, { ...store, [kind]: approvals })
}

/** Whether `dir` itself is a trusted workspace: unlike `trustedBy`, a parent folder's trust does not count. */
export async function trustedExactly(file: string, dir: string): Promise<boolean> {
  const store = await readTrustStore(file)
  return Object.hasOwn(store.workspaces, await realpath(dir).catch(() => dir))
}
