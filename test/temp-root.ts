import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const PREFIX = 'modloop-run-'

/**
 * One directory for everything the run's tests make in the temporary directory (projects, homes,
 * transcripts, the CLI's and hooks' own temp files) and for MODLOOP_HOME, removed when the run
 * ends. Tests make their trees with mkdtemp and rarely remove them; without this a few runs left
 * thousands of directories in /tmp. The workers and every process they start inherit TMPDIR,
 * which os.tmpdir() reads, and MODLOOP_HOME.
 */
export default function setup(): () => void {
  removeAbandoned()
  const root = mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`))
  // embedded Postgres keeps its data below here, and as root it runs its server as another user
  chmodSync(root, 0o755)
  process.env.TMPDIR = root
  // Sessions a test runs through the default distribution record transcripts: never in the real
  // home, and not in one kept between runs either (one per checkout had grown to ~370 MB).
  process.env.MODLOOP_HOME = join(root, 'home')
  return () => rmSync(root, { recursive: true, force: true })
}

/** The directories of runs that were killed before their teardown: their process is gone. */
function removeAbandoned(): void {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(/^modloop-run-(\d+)-/.exec(name)?.[1])
    if (pid && !alive(pid)) rmSync(join(tmpdir(), name), { recursive: true, force: true })
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    // EPERM: alive, someone else's
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}
