import type { ChildProcess } from 'node:child_process'
import { childProcess } from './child-process.js'

/** The environment as spawn() passes it: defined values only. */
export function definedEnv(env: NodeJS.ProcessEnv): Map<string, string> {
  const out = new Map<string, string>()
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out.set(k, v)
  return out
}

/**
 * The shell commands that give `names` back the values `env` has for them (or unset them): what a
 * spare puts back before it execs, so the process gets exactly the environment spawn() would have
 * given it though the spare's own start and `cd` changed them.
 */
export function restoreVars(env: Map<string, string>, names: readonly string[]): string {
  return names.map((name) => {
    const value = env.get(name)
    return value === undefined ? `unset ${name}` : `export ${name}='${value.replaceAll("'", `'\\''`)}'`
  }).join('; ')
}

function sameEnv(a: Map<string, string>, b: Map<string, string>): boolean {
  if (a.size !== b.size) return false
  for (const [k, v] of a) if (b.get(k) !== v) return false
  return true
}

/**
 * A shell started ahead of the process it is to become, waiting on its stdin while the host waits
 * on something else (a model streaming its answer), so that the process is not a fork of the
 * whole host on the path that needs it (5–8 ms of blocked event loop for a 60 MB Node process,
 * more on virtual machines where page faults are dear). What it reads and execs is the subclass's:
 * the Bash tool's bash (mods/bash/spare-shell.ts), a command hook's sh (spare-sh.ts).
 */
export abstract class SpareProcess {
  private ready?: { child: ChildProcess; env: Map<string, string> }
  /** The shell could not be started: no more tries. */
  protected broken = false

  /** Whether one waits. */
  protected get waiting(): boolean {
    return this.ready !== undefined
  }

  /**
   * The waiting child, taken, when it was made for `env` and still runs; its handles hold the host
   * open again. Else undefined, and a spare made for another environment is ended.
   */
  protected claim(env: NodeJS.ProcessEnv): ChildProcess | undefined {
    const ready = this.ready
    if (!ready) return undefined
    this.ready = undefined
    const { child } = ready
    if (child.exitCode !== null || child.signalCode !== null || !sameEnv(ready.env, definedEnv(env))) {
      end(child)
      return undefined
    }
    for (const handle of handles(child)) handle.ref()
    return child
  }

  /** Starts `shell -c script` in a session of its own with `env`, as the one waiting for `vars`. */
  protected launch(shell: string, script: string, env: Record<string, string>, vars: Map<string, string>): void {
    let child: ChildProcess
    try {
      child = childProcess().spawn(shell, ['-c', script], { detached: true, stdio: ['pipe', 'pipe', 'pipe'], env })
    } catch {
      // An environment spawn() refuses (a NUL in a value): the process's own spawn will say so.
      this.broken = true
      return
    }
    // Waiting, it holds nothing open: a run may end meanwhile (its stdin closing ends the spare).
    for (const handle of handles(child)) handle.unref()
    child.stdin!.on('error', () => {}) // a spare that died before it was taken: the exit reports it
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
