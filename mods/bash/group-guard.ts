import type { ChildProcess } from 'node:child_process'
import { childProcess } from '../../hooks-runner/child-process.js'

/**
 * A small `sh` beside this process that ends the Bash process groups still running when this
 * process is gone without its exit handlers: kill -9, a crash in native code, the OOM killer. The
 * commands run detached (their own sessions), so nothing else would end them.
 *
 * It reads `+<pgid>` and `-<pgid>` lines on stdin and keeps the list (once each); when stdin closes (this
 * process gone, however), it sends SIGTERM to each group left, and SIGKILL a second later. A
 * group leaves the list as soon as its command is over: pids come back round (32,768 of them on
 * many systems, within minutes on a busy one), and an id left listed could by then name someone
 * else's group.
 */
const GUARD = `ids=' '
while IFS= read -r l; do
  case $l in
    +*) id=\${l#+}; case $ids in *" $id "*) ;; *) ids="$ids$id " ;; esac ;;
    -*) id=\${l#-}; case $ids in *" $id "*) ids="\${ids%%" $id "*} \${ids#*" $id "}" ;; esac ;;
  esac
done
alive=
for id in $ids; do kill -s TERM -- "-$id" 2>/dev/null && alive="$alive $id"; done
[ -z "$alive" ] && exit 0
sleep 1
for id in $alive; do kill -s KILL -- "-$id" 2>/dev/null; done`

let guard: ChildProcess | undefined
let failed = false

/**
 * Starts the guard, if it is not running yet: before the first command, so that no command runs
 * unguarded (started after it, a kill -9 during its fork would leave the command's group unlisted).
 * Its fork costs the first command of a process ~5–8 ms; the later ones, a line on a pipe.
 */
export function ensureGuard(): void {
  if (guard || failed) return
  try {
    // Detached, so a terminal's signals do not reach it; no environment of the session's is needed.
    guard = childProcess().spawn('sh', ['-c', GUARD], { detached: true, stdio: ['pipe', 'ignore', 'ignore'], env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } })
  } catch {
    failed = true
    return
  }
  // It holds nothing open: this process ends as if it were not there, and its stdin closing is the signal.
  guard.unref()
  ;(guard.stdin as unknown as { unref(): void }).unref()
  guard.stdin!.on('error', () => {}) // a guard that is gone: commands are as unguarded as before it
  const own = guard
  guard.once('error', () => {
    failed = true
    if (guard === own) guard = undefined
  })
  // One that ended anyway (killed by someone): the next command starts another.
  guard.once('exit', () => {
    if (guard === own) guard = undefined
  })
}

function send(line: string): void {
  ensureGuard()
  guard?.stdin!.write(`${line}\n`)
}

/**
 * Lists a command's process group, to be ended should this process die with it running. A spare
 * bash is listed before it is handed its command; a command spawned directly, once spawn()
 * returns, so a kill -9 in the few milliseconds between its exec and this line leaves it running.
 */
export function guardGroup(pgid: number): void {
  if (pgid > 0) send(`+${pgid}`)
}

/** Takes a group off the list: nothing of it runs any more. */
export function releaseGroup(pgid: number): void {
  if (pgid > 0) send(`-${pgid}`)
}
