import { groupAlive, killGroup } from './kill-group.js'

/**
 * Process groups of hooks that exited while a process they left running still held their output
 * pipes. The runner does not wait for such a process (it could hold the turn for ever), so it is
 * ended with the session instead of outliving it: a daemon meant to stay redirects its output.
 */
export class HeldGroups {
  private readonly pgids = new Set<number>()

  add(pgid: number): void {
    this.pgids.add(pgid)
  }

  /** Ends every group that still has a live process: SIGTERM, then SIGKILL after `graceMs`. */
  async killAll(graceMs: number): Promise<void> {
    const groups = [...this.pgids].filter(groupAlive)
    this.pgids.clear()
    await Promise.all(groups.map((pgid) => killGroup(pgid, graceMs)))
  }
}
