import type { ChildProcess } from 'node:child_process'
import { childProcess } from '../../hooks-runner/child-process.js'
import { guardGroup } from './group-guard.js'
import { shellQuote, type Env } from './run-shell.js'

// The spare reads the command byte by byte (bash's `read` on a pipe); longer ones start as before.
const MAX_SCRIPT_BYTES = 4096

// The spare's own variables, named apart from any a command would have: assigned in a bash that
// had them from its environment, they would be exported to the command changed.
const DIR_VAR = '__modloop_spare_dir'
const SCRIPT_VAR = '__modloop_spare_script'

/**
 * Variables a bash started in between would not pass on as they came: exported functions are
 * re-serialised, SHELLOPTS and BASHOPTS would set the spare's own options, and the spare's own
 * two would be overwritten. A session that has them starts each command as before.
 */
const unfaithful = (name: string) => name.startsWith('BASH_FUNC_') || name === 'SHELLOPTS' || name === 'BASHOPTS' || name === DIR_VAR || name === SCRIPT_VAR

/** The environment as spawn() passes it: defined values only. */
function defined(env: Env): Map<string, string> {
  const out = new Map<string, string>()
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out.set(k, v)
  return out
}

function sameEnv(a: Map<string, string>, b: Map<string, string>): boolean {
  if (a.size !== b.size) return false
  for (const [k, v] of a) if (b.get(k) !== v) return false
  return true
}

/**
 * What a bash must put back before it execs the command's own bash, so that bash gets exactly the
 * environment spawn() would have given it: the spare's start set PWD and exported OLDPWD, its `cd`
 * changed both, and BASH_ENV was held back so the spare would not source the file itself. SHLVL
 * needs nothing: bash raises it at start and lowers it for `exec`.
 */
function restore(env: Map<string, string>): string {
  return ['PWD', 'OLDPWD', 'BASH_ENV'].map((name) => {
    const value = env.get(name)
    return value === undefined ? `unset ${name}` : `export ${name}=${shellQuote(value)}`
  }).join('; ')
}

/**
 * A bash started ahead of the next command, while the model is still answering, so that the
 * command's round does not wait on a fork of this whole process (5–8 ms of blocked event loop on
 * a 60 MB process, more on virtual machines where page faults are dear).
 *
 * It is the command's process, not a shell that runs commands: given the directory and the script
 * on stdin, it `cd`s and execs `bash -c <script>` with stdin from /dev/null. So the command runs
 * in a fresh bash as before — its own pid, `$$`, process group and session (detached), this process
 * as its parent, the environment spawn() would give it, BASH_ENV sourced once — and its exit code
 * or signal, stdout and stderr are this child's own. Only `$_` at the script's first line differs
 * (the path bash was exec'd by).
 */
export class SpareShell {
  private ready?: { child: ChildProcess; env: Map<string, string> }
  /** Set once a command ran: a session that never runs one never pays for a spare. */
  private wanted = false
  /** bash could not be started: no more tries. */
  private broken = false

  /**
   * The child running `script` in `cwd` with `env`, when a spare made for this environment is
   * waiting; else undefined (the caller spawns), and a spare is wanted from now on.
   */
  take(script: string, cwd: string, env: Env): ChildProcess | undefined {
    this.wanted = true
    const ready = this.ready
    // A long script is read faster by a bash of its own; the spare waits for the next command.
    if (!ready || Buffer.byteLength(script) > MAX_SCRIPT_BYTES) return undefined
    this.ready = undefined
    const { child } = ready
    if (child.exitCode !== null || child.signalCode !== null || !sameEnv(ready.env, defined(env))) {
      end(child)
      return undefined
    }
    for (const handle of handles(child)) handle.ref()
    // Listed before it has its command, so no moment of the command goes unguarded.
    if (child.pid) guardGroup(child.pid)
    child.stdin!.end(`${cwd}\0${script}\0`)
    return child
  }

  /** Whether prepare() would start one: a command ran, and none waits. */
  needed(): boolean {
    return this.wanted && !this.ready && !this.broken
  }

  /** Starts a spare for the next command, unless one waits or none is wanted. */
  prepare(env: Env): void {
    if (!this.needed()) return
    const vars = defined(env)
    if ([...vars.keys()].some(unfaithful)) return
    const rest = Object.fromEntries(vars)
    delete rest.BASH_ENV
    // A failed `cd` (the directory went between the check and the command) ends like a failed command.
    const script = `IFS= read -r -d '' ${DIR_VAR} || exit 0; IFS= read -r -d '' ${SCRIPT_VAR} || exit 0; ` +
      `builtin cd -P -- "$${DIR_VAR}" 2>/dev/null || { printf 'bash: %s: the working directory is gone\\n' "$${DIR_VAR}" >&2; exit 1; }; ` +
      `${restore(vars)}; exec bash -c "$${SCRIPT_VAR}" </dev/null`
    let child: ChildProcess
    try {
      child = childProcess().spawn('bash', ['-c', script], { detached: true, stdio: ['pipe', 'pipe', 'pipe'], env: rest })
    } catch {
      // An environment spawn() refuses (a NUL in a value): the command's own spawn will say so.
      this.broken = true
      return
    }
    // Waiting, it holds nothing open: a run may end meanwhile (its stdin closing ends the spare).
    for (const handle of handles(child)) handle.unref()
    child.stdin!.on('error', () => {}) // a spare that died before its command arrived: the exit reports it
    child.once('error', () => {
      this.broken = true
      if (this.ready?.child === child) this.ready = undefined
    })
    child.once('exit', () => {
      if (this.ready?.child === child) this.ready = undefined
    })
    this.ready = { child, env: vars }
  }

  /** Ends a waiting spare (session end, process exit): closing its stdin is enough, at once is surer. */
  dispose(): void {
    this.wanted = false
    if (this.ready) end(this.ready.child)
    this.ready = undefined
  }
}

/** The process and its pipes (sockets, which the stream types do not show), for ref() and unref(). */
const handles = (child: ChildProcess) => [child, child.stdin, child.stdout, child.stderr] as unknown as { ref(): void; unref(): void }[]

function end(child: ChildProcess): void {
  child.stdin?.destroy()
  if (child.pid && child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(-child.pid, 'SIGKILL')
    } catch {
      // gone already
    }
  }
  for (const s of [child.stdout, child.stderr]) s?.destroy()
}
