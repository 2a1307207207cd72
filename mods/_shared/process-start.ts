import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { hostname } from 'node:os'

/**
 * When process `pid` started, as an opaque token that only compares equal for the same process:
 * on Linux the start time in clock ticks since boot (`/proc/<pid>/stat`, field 22), elsewhere
 * `ps -o lstart`. Undefined when the process does not exist or cannot be asked. A PID the system
 * reused names a process with another start, so a lock can tell its writer from a stranger.
 */
export function processStart(pid: number): string | undefined {
  if (process.platform === 'linux') return statFields(pid)?.[19]
  try {
    return execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined
  } catch {
    return undefined
  }
}

/**
 * Whether `pid` has exited but was not yet reaped by its parent (Linux only): a killed process
 * whose parent does not wait for it, or one handed to an init that reaps late, still answers
 * `kill(pid, 0)` but writes nothing any more.
 */
export function isZombie(pid: number): boolean {
  return process.platform === 'linux' && statFields(pid)?.[0] === 'Z'
}

/** The fields of `/proc/<pid>/stat` after the command name, from the state (field 3) on. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) is in parentheses and may hold spaces; the fields after it are plain.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  } catch {
    return undefined
  }
}

let ownStartCache: string | undefined
/** This process's start (processStart of its own pid), read once. */
export function ownProcessStart(): string | undefined {
  ownStartCache ??= processStart(process.pid)
  return ownStartCache
}

/**
 * Whether the process a lock names still runs: its pid is alive and not a zombie, and it started
 * when the lock says (a reused pid names another process). A lock from another host cannot be
 * checked and holds; one naming no start holds while its pid lives.
 */
export function writerAlive(writer: { pid: number; start?: string; host?: string }): boolean {
  if (writer.host !== undefined && writer.host !== hostname()) return true
  try {
    process.kill(writer.pid, 0)
    if (isZombie(writer.pid)) return false
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  if (writer.start === undefined) return true
  const start = processStart(writer.pid)
  return start === undefined || start === writer.start
}
