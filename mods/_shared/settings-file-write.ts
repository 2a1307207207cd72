import { readJsonObject, writeJsonAtomic } from './json-file.js'

/**
 * Sets one key of a settings file (`path` walks nested objects: ['permissions', 'defaultMode']),
 * or removes it when `value` is undefined, keeping every other key as written. The file and its
 * folder are created when missing; a file that is not a JSON object is left alone (an error names
 * it) rather than overwritten. The new text goes to a temporary file renamed over the old one, so
 * a reader never sees half of it.
 */
export async function setSettingsKey(file: string, path: readonly string[], value: unknown): Promise<void> {
  const root = await readJsonObject(file)
  let node = root
  for (const key of path.slice(0, -1)) {
    const child = node[key]
    if (child !== undefined && (typeof child !== 'object' || child === null || Array.isArray(child))) {
      throw new Error(`${file}: "${path.slice(0, path.indexOf(key) + 1).join('.')}" is not an object; not changed`)
    }
    node = (node[key] ??= {}) as Record<string, unknown>
  }
  const last = path.at(-1)!
  if (value === undefined) delete node[last]
  else node[last] = value
  await writeJsonAtomic(file, root)
}

/** The value at `path` of a settings object, undefined where any step is missing. */
export function valueAt(settings: Record<string, unknown>, path: readonly string[]): unknown {
  let node: unknown = settings
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined
    node = (node as Record<string, unknown>)[key]
  }
  return node
}
