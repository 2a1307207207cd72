import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { describeError } from '../../core/errors.js'

/**
 * A file's JSON object, `{}` when the file does not exist. One that is there but cannot be read,
 * is not JSON or holds no object is an error naming it: a caller about to change or delete what
 * the file records stops rather than take it for empty.
 */
export async function readJsonObject(file: string): Promise<Record<string, unknown>> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {}
    throw new Error(`${file} could not be read: ${describeError(err)}`)
  }
  let json: unknown
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (err) {
    throw new Error(`${file} is not valid JSON (${describeError(err)}); fix it first, it is left as it is`)
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error(`${file} does not hold a JSON object; fix it first, it is left as it is`)
  return json as Record<string, unknown>
}

/**
 * Writes `value` as indented JSON, whole: to a temporary file renamed over `file` (its folder made
 * when missing), so a reader never sees half of it.
 */
export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  const temp = `${file}.${process.pid}.tmp`
  await writeFile(temp, `${JSON.stringify(value, null, 2)}\n`)
  await rename(temp, file)
}
