import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { isAbsolute } from 'node:path'
import { describeError } from '../core/errors.js'
import type { SessionStartInput } from '../core/events/types.js'
import type { Session } from '../core/loop/session.js'
import { modFromModule } from '../core/mod/define.js'
import { describeImportFailure } from './loader/import-module.js'
import { freshJiti } from './loader/jiti.js'
import { watchMods, type ModWatcher } from './watch.js'

export interface ReloadOutcome {
  mod: string
  ok: boolean
  message: string
}

/**
 * Hot reload for one session: `/reload` and `--watch-mods`. A mod loaded from a file is imported
 * afresh and put in its old place; its tools and commands are dropped and its session.start runs
 * again to register them anew. A new version that does not import or register leaves the last
 * good one in place, and the outcome says why. Reloads run between turns, never inside one.
 */
export class ModReloader {
  private readonly dirty = new Set<string>()
  private watcher: ModWatcher | undefined

  constructor(private readonly session: Session, private readonly start: SessionStartInput) {}

  /** The mods that can be reloaded: loaded, from a file that still exists, by file. */
  files(): Map<string, string> {
    const out = new Map<string, string>()
    for (const m of this.session.host.list()) {
      if (m.status === 'loaded' && m.source && isAbsolute(m.source) && existsSync(m.source)) out.set(m.source, m.name)
    }
    return out
  }

  watch(debounceMs?: number): void {
    this.watcher?.close()
    this.watcher = watchMods(this.files(), (mods) => { for (const m of mods) this.dirty.add(m) }, debounceMs)
  }

  get hasPending(): boolean {
    return this.dirty.size > 0
  }

  /** Reloads the mods the watcher saw change. */
  applyPending(): Promise<ReloadOutcome[]> {
    const names = [...this.dirty]
    this.dirty.clear()
    return this.reload(names)
  }

  /** Reloads the named mods, or every mod loaded from a file. */
  async reload(names?: readonly string[]): Promise<ReloadOutcome[]> {
    // The reloaded mods' starts read the settings files as they are now, each file once among them.
    const settings = this.session.host.capabilities.get('settingsFiles')
    return settings ? settings.during(() => this.reloadAll(names)) : this.reloadAll(names)
  }

  private async reloadAll(names?: readonly string[]): Promise<ReloadOutcome[]> {
    const files = this.files()
    const targets = names ?? [...files.values()]
    const out: ReloadOutcome[] = []
    for (const name of targets) {
      const source = [...files].find(([, mod]) => mod === name)?.[0]
      out.push(source ? await this.reloadOne(name, source) : { mod: name, ok: false, message: `${name}: no mod of that name was loaded from a file, so there is nothing to reload` })
    }
    return out
  }

  /** `/reload [mod]`: the outcome of each reload, one line each. */
  async command(args: string): Promise<string> {
    const names = args.trim() ? args.trim().split(/\s+/) : undefined
    const outcomes = await this.reload(names)
    if (outcomes.length === 0) return 'No mod of this session was loaded from a file; nothing to reload.'
    return outcomes.map((o) => o.message).join('\n')
  }

  close(): void {
    this.watcher?.close()
    this.watcher = undefined
  }

  private async reloadOne(name: string, source: string): Promise<ReloadOutcome> {
    const { host } = this.session
    let def
    try {
      // Evaluated from its source: an ES module file jiti would hand to Node's import() stays cached there.
      const jiti = await freshJiti()
      const ns = await jiti.evalModule(await readFile(source, 'utf8'), { filename: source, async: true, forceTranspile: true })
      def = modFromModule(ns as Record<string, unknown>, name)
      if (!def) throw new Error('not a mod: export `register(on, options)` or `export default defineMod({ name, register })`')
    } catch (err) {
      return { mod: name, ok: false, message: `${name}: ${source} did not load, so the last good version stays: ${describeImportFailure(err)}` }
    }
    const error = await host.reload(name, def)
    const restarted = await this.restart(name)
    if (error) return { mod: name, ok: false, message: `${name}: the new version did not register, so the last good version stays: ${error.message}` }
    return { mod: name, ok: restarted === undefined, message: restarted ?? `${name}: reloaded from ${source}` }
  }

  /** The reloaded (or restored) mod starts over in this session: what it registered goes, its session.start runs. */
  private async restart(name: string): Promise<string | undefined> {
    const { session } = this
    for (const tool of session.tools.list()) if (tool.mod === name) session.tools.unregister(tool.name)
    for (const [command, info] of session.commands) if (info.mod === name) session.commands.delete(command)
    // Sections and descriptions are answered once per session; the new version answers them afresh.
    session.sectionCache.clear()
    session.describeCache.clear()
    try {
      await session.host.bus.emitTo(name, 'session.start', this.start)
      return undefined
    } catch (err) {
      return `${name}: reloaded, but its session.start failed: ${describeError(err)}`
    }
  }
}
