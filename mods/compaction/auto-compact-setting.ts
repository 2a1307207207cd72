import { stat } from 'node:fs/promises'
import { readJsonObject } from '../_shared/json-file.js'

/**
 * Claude Code's `autoCompactEnabled`, kept in its global config (`~/.claude.json`), not in
 * settings.json: `false` turns auto compaction off. Its /config toggles it during a session and the
 * change is felt at once, so the file is looked at again before each turn, but read again only when
 * its modification time moved: one stat a turn.
 */
export class AutoCompactSetting {
  private seen: number | undefined
  private on = true

  get enabled(): boolean {
    return this.on
  }

  /** Reads the file again if it changed since the last look; a missing file leaves compaction on. */
  async refresh(file: string, warn: (text: string) => void): Promise<void> {
    let mtime: number
    try {
      mtime = (await stat(file)).mtimeMs
    } catch {
      this.seen = undefined
      this.on = true
      return
    }
    if (mtime === this.seen) return
    this.seen = mtime
    try {
      const value = (await readJsonObject(file)).autoCompactEnabled
      if (value !== undefined && typeof value !== 'boolean') warn(`${file}: "autoCompactEnabled" must be true or false; ignored`)
      this.on = value !== false
    } catch (err) {
      warn(`${(err as Error).message}; autoCompactEnabled is not read from it`)
      this.on = true
    }
  }
}
