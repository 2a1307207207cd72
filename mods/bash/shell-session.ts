import { stat } from 'node:fs/promises'
import { allowedRoots, isInside, realpathLoose } from '../_shared/allowed-paths.js'
import { BackgroundShells } from './background-shells.js'

/** What Bash keeps per session: the directory `cd` moved to, and the background shells. */
export class ShellSession {
  readonly background = new BackgroundShells()
  private cwd: string

  constructor(readonly sessionCwd: string, private readonly extraDirs: readonly string[]) {
    this.cwd = sessionCwd
  }

  /** The directory the next command starts in; back to the session's when it was removed. */
  async currentCwd(): Promise<{ cwd: string; note?: string }> {
    if (this.cwd === this.sessionCwd) return { cwd: this.cwd }
    const ok = await stat(this.cwd).then((s) => s.isDirectory(), () => false)
    if (ok) return { cwd: this.cwd }
    const gone = this.cwd
    this.cwd = this.sessionCwd
    return { cwd: this.cwd, note: `The previous working directory ${gone} no longer exists; the shell started in ${this.cwd}.` }
  }

  /** Adopts the directory a command ended in, when it is inside the allowed directories. */
  async moveTo(dir: string): Promise<string | undefined> {
    const real = await realpathLoose(dir)
    const roots = await allowedRoots(this.sessionCwd, this.extraDirs)
    if (roots.some((r) => isInside(r, real))) {
      this.cwd = real
      return undefined
    }
    this.cwd = this.sessionCwd
    return `The shell's working directory was reset to ${this.sessionCwd}: ${real} is outside the directories this session may use.`
  }
}
