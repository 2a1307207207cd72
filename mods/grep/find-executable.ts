import { access, constants } from 'node:fs/promises'
import { delimiter, join } from 'node:path'

const found = new Map<string, Promise<string | undefined>>()

/** The first `name` on PATH that can be executed; looked up once per name and process. */
export function findExecutable(name: string): Promise<string | undefined> {
  let hit = found.get(name)
  if (!hit) {
    hit = (async () => {
      for (const dir of (process.env.PATH ?? '').split(delimiter)) {
        if (!dir) continue
        const path = join(dir, name)
        if (await access(path, constants.X_OK).then(() => true, () => false)) return path
      }
      return undefined
    })()
    found.set(name, hit)
  }
  return hit
}
