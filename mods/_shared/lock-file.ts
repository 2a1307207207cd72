import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'

/**
 * Takes the lock file at `path`: created exclusively (`wx`) with `content`, which names its
 * writer. A lock already there whose writer `holds` says is gone (or debris that names none) is
 * removed and taken over, unless another writer took it over meanwhile. Answers the release,
 * which removes the file only while it is still this one's, or the text of the lock that holds.
 * Synchronous on purpose: taking a lock must not interleave with itself. A failure other than
 * the file being there (no folder, no permission) is thrown.
 */
export function takeLockFile(path: string, content: string, holds: (text: string) => boolean): (() => void) | { heldBy: string } {
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number
    try {
      fd = openSync(path, 'wx')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const text = readText(path)
      if (text !== undefined && holds(text)) return { heldBy: text }
      if (readText(path) === text) {
        try { unlinkSync(path) } catch { /* removed by another writer */ }
      }
      continue
    }
    writeSync(fd, content)
    closeSync(fd)
    let released = false
    return () => {
      if (released) return
      released = true
      if (readText(path) === content) {
        try { unlinkSync(path) } catch { /* already gone */ }
      }
    }
  }
  return { heldBy: readText(path) ?? '' }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}
