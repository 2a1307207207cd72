import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * One directory for everything the run's tests make in the temporary directory (projects, homes,
 * transcripts, the CLI's and hooks' own temp files), removed when the run ends. Tests make their
 * trees with mkdtemp and rarely remove them; without this a few runs left thousands of directories
 * in /tmp. The workers and every process they start inherit TMPDIR, which os.tmpdir() reads.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'modloop-run-'))
  // embedded Postgres keeps its data below here, and as root it runs its server as another user
  chmodSync(root, 0o755)
  process.env.TMPDIR = root
  return () => rmSync(root, { recursive: true, force: true })
}
