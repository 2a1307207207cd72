import { stat } from 'node:fs/promises'
import { envTrue } from '../../core/env.js'
import { allowedRoots, isInside, realpathLoose } from '../_shared/allowed-paths.js'
import { BackgroundShells } from './background-shells.js'
import { shellQuote as quote, type Env } from './run-shell.js'
import { SpareShell } from './spare-shell.js'

/** What Bash keeps per session: the directory `cd` moved to, the background shells, and the env files hooks wrote. */
export class ShellSession {
  readonly background: BackgroundShells
  /** The bash waiting for the next command (one per session: it takes its directory when used). */
  readonly spare: SpareShell
  private cwd: string

  /** `env`: the session's environment, read at each command (a mod may change it between two). */
  constructor(
    readonly sessionCwd: string,
    private readonly extraDirs: readonly string[],
    private readonly envFiles: () => readonly string[] = () => [],
    readonly env: () => Env = () => process.env,
    /** Told each time the directory changes, so others (settings hooks) can follow it. */
    private readonly onMove: (cwd: string) => void = () => {},
    /** The background shells and the spare, when another ShellSession of the session already keeps them (a subagent's worktree). */
    shared?: Pick<ShellSession, 'background' | 'spare'>,
  ) {
    this.cwd = sessionCwd
    this.background = shared?.background ?? new BackgroundShells(env)
    this.spare = shared?.spare ?? new SpareShell()
  }

  private go(dir: string): void {
    if (dir === this.cwd) return
    this.cwd = dir
    this.onMove(dir)
  }

  /**
   * What runs before each command: sourcing the `CLAUDE_ENV_FILE` files settings hooks wrote (spec
   * §4.3), so their `export` lines hold in every later command. One line, so the command's own line
   * numbers stay the user's; a file a hook never wrote is skipped.
   */
  prelude(): string {
    return this.envFiles().map((f) => `[ -r ${quote(f)} ] && . ${quote(f)} >/dev/null; `).join('')
  }

  /** The directory the next command starts in; back to the session's when it was removed. */
  async currentCwd(): Promise<{ cwd: string; note?: string }> {
    if (this.cwd === this.sessionCwd) return { cwd: this.cwd }
    const ok = await stat(this.cwd).then((s) => s.isDirectory(), () => false)
    if (ok) return { cwd: this.cwd }
    const gone = this.cwd
    this.go(this.sessionCwd)
    return { cwd: this.cwd, note: `The previous working directory ${gone} no longer exists; the shell started in ${this.cwd}.` }
  }

  /** Goes to `dir`, which the session now works in (a worktree it entered), wherever it is. */
  enter(dir: string): void {
    this.go(dir)
  }

  /**
   * Adopts the directory a command ended in, when it is inside the allowed directories; never with
   * `CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR` on, where every command starts where the last one did
   * (read per command: settings `env` may set it while the session runs).
   */
  async moveTo(dir: string): Promise<string | undefined> {
    if (keepsDirectory(this.env())) return undefined
    const real = await realpathLoose(dir)
    const roots = await allowedRoots(this.sessionCwd, this.extraDirs)
    if (roots.some((r) => isInside(r, real))) {
      this.go(real)
      return undefined
    }
    this.go(this.sessionCwd)
    return `The shell's working directory was reset to ${this.sessionCwd}: ${real} is outside the directories this session may use.`
  }
}

/** Whether a `cd` is forgotten after each command (`CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR`), as in Claude Code. */
export const keepsDirectory = (env: Env): boolean => envTrue(env.CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR)
