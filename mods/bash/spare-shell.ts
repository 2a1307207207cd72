import type { ChildProcess } from 'node:child_process'
import { definedEnv, restoreVars, SpareProcess } from '../../hooks-runner/spare-process.js'
import { guardGroup } from './group-guard.js'
import type { Env } from './run-shell.js'

// The spare reads the command byte by byte (bash's `read` on a pipe), a system call a byte: past
// ~2 KB that is slower than the fork it spares (a 4 KB script took 13.2 ms against 10.7 spawned).
// Longer ones start as before.
const MAX_SCRIPT_BYTES = 1024

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

/**
 * What a bash must put back before it execs the command's own bash: the spare's start set PWD and
 * exported OLDPWD, its `cd` changed both, and BASH_ENV was held back so the spare would not source
 * the file itself. SHLVL needs nothing: bash raises it at start and lowers it for `exec`.
 */
const RESTORED = ['PWD', 'OLDPWD', 'BASH_ENV']

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
export class SpareShell extends SpareProcess {
  /** Set once a command ran: a session that never runs one never pays for a spare. */
  private wanted = false

  /**
   * The child running `script` in `cwd` with `env`, when a spare made for this environment is
   * waiting; else undefined (the caller spawns), and a spare is wanted from now on.
   */
  take(script: string, cwd: string, env: Env): ChildProcess | undefined {
    this.wanted = true
    // A long script is read faster by a bash of its own; the spare waits for the next command.
    if (Buffer.byteLength(script) > MAX_SCRIPT_BYTES) return undefined
    const child = this.claim(env)
    if (!child) return undefined
    // Listed before it has its command, so no moment of the command goes unguarded.
    if (child.pid) guardGroup(child.pid)
    child.stdin!.end(`${cwd}\0${script}\0`)
    return child
  }

  /** Whether prepare() would start one: a command ran, and none waits. */
  needed(): boolean {
    return this.wanted && !this.waiting && !this.broken
  }

  /** Starts a spare for the next command, unless one waits or none is wanted. */
  prepare(env: Env): void {
    if (!this.needed()) return
    const vars = definedEnv(env)
    if ([...vars.keys()].some(unfaithful)) return
    const rest = Object.fromEntries(vars)
    delete rest.BASH_ENV
    // A failed `cd` (the directory went between the check and the command) ends like a failed command.
    const script = `IFS= read -r -d '' ${DIR_VAR} || exit 0; IFS= read -r -d '' ${SCRIPT_VAR} || exit 0; ` +
      `builtin cd -P -- "$${DIR_VAR}" 2>/dev/null || { printf 'bash: %s: the working directory is gone\\n' "$${DIR_VAR}" >&2; exit 1; }; ` +
      `${restoreVars(vars, RESTORED)}; exec bash -c "$${SCRIPT_VAR}" </dev/null`
    this.launch('bash', script, rest, vars)
  }

  override dispose(): void {
    this.wanted = false
    super.dispose()
  }
}
