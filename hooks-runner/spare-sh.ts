import type { ChildProcess } from 'node:child_process'
import { definedEnv, restoreVars, SpareProcess } from './spare-process.js'

// The spare reads the command a line at a time, and sh's `read` on a pipe takes a byte a system
// call: past ~2 KB that is slower than the fork it spares (4 KB: 10.0 ms against 7.8 spawned).
// Longer ones start as before.
const MAX_COMMAND_BYTES = 1024
const SHELL = '/bin/sh'

// The spare's own variables, named apart from any a hook would have: assigned in a shell that had
// them from its environment, they would be exported to the hook changed. An environment that has
// one of them gets no spare.
const VARS = ['__modloop_spare_dir', '__modloop_spare_lines', '__modloop_spare_command', '__modloop_spare_i', '__modloop_spare_line']

/**
 * A `/bin/sh` started ahead of a session's next shell-form command hook, while the model is still
 * answering (see SpareProcess): a tool call's PreToolUse hook otherwise adds a fork of the host to
 * every round.
 *
 * It is the hook's process, not a shell that runs hooks: given the directory and the command line
 * on stdin, it `cd`s and execs `/bin/sh -c <command>` with the rest of its stdin — the hook's JSON
 * input — as the hook's. So the hook runs in a fresh shell as before: its own pid, process group
 * and session (detached), this process as its parent, the environment spawn() would give it, its
 * exit code or signal, stdout and stderr this child's own.
 */
export class SpareSh extends SpareProcess {
  /** The environment of the last shell-form hook: the next one's, most likely. */
  private lastEnv?: NodeJS.ProcessEnv

  /**
   * The child running `/bin/sh -c <command>` in `cwd` with `env`, its stdin open for the hook's
   * input, when a spare made for this environment is waiting; else undefined (the caller spawns).
   */
  take(file: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): ChildProcess | undefined {
    if (file !== SHELL || args.length !== 2 || args[0] !== '-c') return undefined
    this.lastEnv = env
    const command = args[1]!
    if (cwd.includes('\n') || Buffer.byteLength(command) > MAX_COMMAND_BYTES) return undefined
    const child = this.claim(env)
    if (!child) return undefined
    const lines = command.split('\n')
    child.stdin!.write(`${cwd}\n${lines.length}\n${lines.join('\n')}\n`)
    return child
  }

  /** Whether prepare() would start one: a shell-form hook ran, and none waits. */
  needed(): boolean {
    return this.lastEnv !== undefined && !this.waiting && !this.broken
  }

  /** Starts a spare for the next hook, in the last hook's environment, unless one waits or none is wanted. */
  prepare(): void {
    if (!this.needed()) return
    const vars = definedEnv(this.lastEnv!)
    if (VARS.some((v) => vars.has(v))) return
    const [dir, count, command, i, line] = VARS
    // A failed `cd` (the directory went between the check and the hook) ends like a failed hook.
    const script = `IFS= read -r ${dir} || exit 0; IFS= read -r ${count} || exit 0; ${command}=; ${i}=0; ` +
      `while [ "$${i}" -lt "$${count}" ]; do IFS= read -r ${line} || exit 0; ` +
      `if [ "$${i}" -eq 0 ]; then ${command}=$${line}; else ${command}="$${command}\n$${line}"; fi; ${i}=$((${i} + 1)); done; ` +
      `cd -P -- "$${dir}" 2>/dev/null || { printf 'sh: %s: the working directory is gone\\n' "$${dir}" >&2; exit 1; }; ` +
      // Its `cd` changed PWD and OLDPWD.
      `${restoreVars(vars, ['PWD', 'OLDPWD'])}; exec ${SHELL} -c "$${command}"`
    this.launch(SHELL, script, Object.fromEntries(vars), vars)
  }

  override dispose(): void {
    this.lastEnv = undefined
    super.dispose()
  }
}
