import { watch, type FSWatcher } from 'node:fs'
import { basename, dirname, extname } from 'node:path'

export interface ModWatcher {
  close(): void
}

const CODE = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json'])

/**
 * Watches the directories of mods loaded from files and reports which mods changed, debounced
 * (an editor's save is often several events). A change to a mod's own file names that mod; a
 * change to another code file in its directory (a helper it imports) names every mod there.
 * Directories are watched rather than files: editors that save by rename replace the file.
 */
export function watchMods(files: ReadonlyMap<string, string>, onChange: (mods: string[]) => void, debounceMs = 50): ModWatcher {
  const byDir = new Map<string, Map<string, string>>()
  for (const [file, mod] of files) {
    const dir = dirname(file)
    byDir.set(dir, (byDir.get(dir) ?? new Map()).set(basename(file), mod))
  }
  const changed = new Set<string>()
  let timer: NodeJS.Timeout | undefined
  const flush = () => {
    timer = undefined
    const mods = [...changed]
    changed.clear()
    if (mods.length > 0) onChange(mods)
  }
  const watchers: FSWatcher[] = []
  for (const [dir, mods] of byDir) {
    let w: FSWatcher
    try {
      w = watch(dir, (_type, filename) => {
        const name = filename ? String(filename) : undefined
        const own = name ? mods.get(name) : undefined
        if (own) changed.add(own)
        else if (!name || CODE.has(extname(name))) for (const mod of mods.values()) changed.add(mod)
        else return
        clearTimeout(timer)
        timer = setTimeout(flush, debounceMs)
        timer.unref()
      })
    } catch {
      continue // a directory gone since the mod loaded: nothing there to reload
    }
    w.on('error', () => w.close())
    w.unref()
    watchers.push(w)
  }
  return {
    close() {
      clearTimeout(timer)
      for (const w of watchers) w.close()
    },
  }
}
