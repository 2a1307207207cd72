import { nodeCrypto } from '../../core/random.js'
import { readProjectServers } from './project-files.js'
import { approvedFingerprints, approveFingerprints } from '../permissions/trust-store.js'

/** One `.mcp.json` server as a reviewer sees it, with the fingerprint its approval is keyed by. */
export interface ProjectServer {
  name: string
  /** The `.mcp.json` that holds it: the folder's own or one above it. */
  file: string
  fingerprint: string
  /** What it runs or where it connects, on one line. */
  summary: string
  approved: boolean
}


/**
 * A project server's identity for approval: its name and what decides what it runs or reaches
 * (type, command, args, env, cwd, url, headers), as written in the file: a change to any of them makes
 * it a new server that is asked about again (a new `cwd` runs another `node server.js`). Keys are
 * sorted so reformatting the file changes nothing.
 */
export function serverFingerprint(name: string, raw: unknown): string {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>
  const picked = [name, r.type ?? 'stdio', r.command ?? null, r.args ?? [], sorted(r.env), r.url ?? null, sorted(r.headers)]
  // Only when set, so the servers approved before cwd counted keep their fingerprints.
  if (r.cwd !== undefined) picked.push({ cwd: r.cwd })
  return nodeCrypto().createHash('sha256').update(JSON.stringify(picked)).digest('hex').slice(0, 16)
}

function sorted(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return v ?? {}
  return Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
}

/** The fingerprints approved for the workspace `cwd`. */
export const approvedServers = (file: string, cwd: string): Promise<Set<string>> => approvedFingerprints(file, 'mcpServers', cwd)

/** Records approval of these fingerprints for the workspace; the rest of the trust store is kept. */
export const approveServers = (file: string, cwd: string, fingerprints: readonly string[]): Promise<void> => approveFingerprints(file, 'mcpServers', cwd, fingerprints)

/** The project servers a session in `cwd` reads (its `.mcp.json` and those above it) with whether each is approved; none when there are no such files or they cannot be read. */
export async function projectServers(cwd: string, storeFile: string): Promise<ProjectServer[]> {
  const servers = await readProjectServers(cwd)
  if (servers.size === 0) return []
  const approved = await approvedServers(storeFile, cwd)
  return [...servers].map(([name, { raw, file }]) => {
    const fingerprint = serverFingerprint(name, raw)
    return { name, file, fingerprint, summary: summaryOf(raw), approved: approved.has(fingerprint) }
  })
}

function summaryOf(raw: unknown): string {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as { command?: unknown; args?: unknown; url?: unknown; cwd?: unknown }
  if (typeof r.url === 'string') return r.url
  const args = Array.isArray(r.args) ? r.args.map(String) : []
  // The folder decides what `node server.js` runs: a reviewer must see it.
  return [String(r.command ?? '?'), ...args].join(' ') + (typeof r.cwd === 'string' ? ` (in ${r.cwd})` : '')
}
