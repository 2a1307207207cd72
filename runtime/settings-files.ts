import { directSettingsReader, type SettingsFileReader, type SettingsJson } from '../hooks-runner/read-settings.js'

declare module '../core/mod/capabilities.js' {
  interface Capabilities {
    /**
     * The settings files as the session reads them (published by the runtime): every mod that
     * reads `settings.json` and friends hands this to its reader, so a session start reads and
     * parses each file once however many mods look at it.
     */
    settingsFiles: SettingsFiles
  }
}

/**
 * The settings files of one session, each read and parsed once while a start holds them: opening
 * a session (the plugins its settings enable, then every mod's session.start), `/clear`'s new
 * conversation, a `/reload`. Outside a start every read goes to disk, as the readers that look
 * again mid-session (auto mode's rules at each classification, a command's shell policy) expect
 * to see a file edited since. A file the session writes is forgotten at once, and so is
 * everything once a SessionStart hook has run, as a hook may have written any of them.
 * What is answered is shared: readers treat the parsed JSON as read-only.
 */
export class SettingsFiles implements SettingsFileReader {
  private readonly files = new Map<string, Promise<SettingsJson>>()
  private readonly lists = new Map<string, Promise<string[]>>()
  private holds = 0

  constructor(private readonly disk: SettingsFileReader = directSettingsReader) {}

  /** One settings file, as `readSettingsJson` answers for it: `absent`, an error naming it, or its JSON. */
  read(file: string): Promise<SettingsJson> {
    if (this.holds === 0) return this.disk.read(file)
    let read = this.files.get(file)
    if (!read) this.files.set(file, read = this.disk.read(file))
    return read
  }

  /** The managed-settings files of `dir`: the main file, then its drop-ins in order. */
  managedFiles(dir: string): Promise<string[]> {
    if (this.holds === 0) return this.disk.managedFiles(dir)
    let list = this.lists.get(dir)
    if (!list) this.lists.set(dir, list = this.disk.managedFiles(dir))
    // A copy: the callers own the list they are given.
    return list.then((files) => [...files])
  }

  /**
   * Holds the files read from now on until the answered release is called (a start's length).
   * Holds nest: the files are dropped when the last one is released.
   */
  hold(): () => void {
    this.holds++
    let released = false
    return () => {
      if (released) return
      released = true
      if (--this.holds === 0) this.forget()
    }
  }

  /** Drops what was read of `file` (the session wrote it), or of every file. */
  forget(file?: string): void {
    if (file !== undefined) {
      this.files.delete(file)
      return
    }
    this.files.clear()
    this.lists.clear()
  }

  /** Runs `start` with the files held. */
  async during<T>(start: () => Promise<T>): Promise<T> {
    const release = this.hold()
    try {
      return await start()
    } finally {
      release()
    }
  }
}
