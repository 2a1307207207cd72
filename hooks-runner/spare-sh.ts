import type { ChildProcess } from 'node:child_process'
import { childProcess } from './child-process.js'

// The spare reads the command a line at a time (sh's `read` on a pipe takes a byte at a time);
// longer ones start as before.
const MAX_COMMAND_BYTES = 4096
const SHELL = '/bin/sh'

// The spare's own variables, named apart from any a hook would have: assigned in a shell that had
// them from its environment, they would be exported to the hook changed. An environment that has
// one of them gets no spare.
const VARS = ['__modloop_spare_dir', '__modloop_spare_lines', '__modloop_spare_command', '__modloop_spare_i', '__modloop_spare_line']

/** The environment as spawn() passes it: defined values only. */
function defined(env: NodeJS.ProcessEnv): Map<string, string> {
  const out = new Map<string, string>()
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out.set(k, v)
  return out
}

function sameEnv(a: Map<string, string>, b: Map<string, string>): boolean {
  if (a.size !== b.size) return false
  for (const [k, v] of a) if (b.get(k) !== v) return false
  return true
}

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`

/**
 * What the spare puts back before it execs the hook's shell, so that shell gets exactly the
 * environment spawn() would have given it: its `cd` changed PWD and OLDPWD.
 */
function restore(env: Map<string, string>): string {
  return ['PWD', 'OLDPWD'].map((name) => {
    const value = env.get(name)
    return value === undefined ? `unset ${name}` : `export ${name}=${quote(value)}`
  }).join('; ')
}

/**
 * A `/bin/sh` started ahead of a session's next shell-form command hook, while the model is still
 * answering, so that the hook does not wait on a fork of this whole process (5–8 ms of blocked
 * event loop for a 60 MB process, more on virtual machines where page faults are dear): a tool
 * call's PreToolUse hook otherwise adds that to every round.
 *
 * It is the hook's process, not a shell that runs hooks: given the directory and the command line
 * on stdin, it `cd`s and execs `/bin/sh -c <command>` with the rest of its stdin — the hook's JSON
 * input — as the hook's. So the hook runs in a fresh shell as before: its own pid, process group
 * and session (detached), this process as its parent, the environment spawn() would give it, its
 * exit code or signal, stdout and stderr this child's own.
 */
export class SpareSh {
  private ready?: { child: ChildProcess; env: Map<string, string> }
  /** The environment of the last shell-form hook: the next one's, most likely. */
  private lastEnv?: NodeJS.ProcessEnv
  /** /bin/sh could not be started: no more tries. */
  private broken = false

  /**
   * The child running `/bin/sh -c <command>` in `cwd` with `env`, its stdin open for the hook's
   * input, when a spare made for this environment is waiting; else undefined (the caller spawns).
   */
  take(file: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): ChildProcess | undefined {
    if (file !== SHELL || args.length !== 2 || args[0] !== '-c') return undefined
    this.lastEnv = env
    const command = args[1]!
    const ready = this.ready
    if (!ready || cwd.includes('\n') || Buffer.byteLength(command) > MAX_COMMAND_BYTES) return undefined
    this.ready = undefined
    const { child } = ready
    if (child.exitCode !== null || child.signalCode !== null || !sameEnv(ready.env, defined(env))) {
      end(child)
      return undefined
    }
    for (const handle of handles(child)) handle.ref()
    const lines = command.split('\n')
    child.stdin!.write(`${cwd}\n${lines.length}\n${lines.join('\n')}\n`)
    return child
  }

  /** Whether prepare() would start one: a shell-form hook ran, and none waits. */
  needed(): boolean {
    return this.lastEnv !== undefined && !this.ready && !this.broken
  }

  /** Starts a spare for the next hook, in the last hook's environment, unless one waits or none is wanted. */
  prepare(): void {
    if (!this.needed()) return
    const vars = defined(this.lastEnv!)
    if (VARS.some((v) => vars.has(v))) return
    const [dir, count, command, i, line] = VARS
    // A failed `cd` (the directory went between the check and the hook) ends like a failed hook.
    const script = `IFS= read -r ${dir} || exit 0; IFS= read -r ${count} || exit 0; ${command}=; ${i}=0; ` +
      `while [ "$${i}" -lt "$${count}" ]; do IFS= read -r ${line} || exit 0; ` +
      `if [ "$${i}" -eq 0 ]; then ${command}=$${line}; else ${command}="$${command}\n$${line}"; fi; ${i}=$((${i} + 1)); done; ` +
      `cd -P -- "$${dir}" 2>/dev/null || { printf 'sh: %s: the working directory is gone\\n' "$${dir}" >&2; exit 1; }; ` +
      `${restore(vars)}; exec ${SHELL} -c "$${command}"`
    let child: ChildProcess
    try {
      child = childProcess().spawn(SHELL, ['-c', script], { detached: true, stdio: ['pipe', 'pipe', 'pipe'], env: Object.fromEntries(vars) })
    } catch {
      // An environment spawn() refuses (a NUL in a value): the hook's own spawn will say so.
      this.broken = true
      return
    }
    // Waiting, it holds nothing open: a run may end meanwhile (its stdin closing ends the spare).
    for (const handle of handles(child)) handle.unref()
    child.stdin!.on('error', () => {}) // a spare that died before its hook arrived: the exit reports it
    child.once('error', () => {
      this.broken = true
      if (this.ready?.child === child) this.ready = undefined
    })
    child.once('exit', () => {
      if (this.ready?.child === child) this.ready = undefined
    })
    this.ready = { child, env: vars }
  }

  /** Ends a waiting spare (session end, process exit). */
  dispose(): void {
    this.lastEnv = undefined
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
