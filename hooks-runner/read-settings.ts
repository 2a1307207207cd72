import { readdir, readFile, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { keyPath, settingsHooksSchema, type SettingsHooks } from './config-schema.js'
import { describeCause, HooksError } from './errors.js'

/** `--settings` accepts a file of at most this size. */
const MAX_SETTINGS_BYTES = 2 * 1024 * 1024

export type SettingsRead =
  | { status: 'absent' }
  | { status: 'error'; error: HooksError }
  | { status: 'ok'; settings: SettingsHooks; errors: HooksError[] }

/** A settings file as JSON, every key kept: what the hooks and the permission rules are both read from. */
export type SettingsJson =
  | { status: 'absent' }
  | { status: 'error'; error: HooksError }
  | { status: 'ok'; json: Record<string, unknown> }

/** Parses settings JSON text (a file's contents or an inline `--settings` value) for its hook keys. */
export function parseSettingsText(text: string, file: string): SettingsRead {
  return settingsHookKeys(parseSettingsJson(text, file), file)
}

/** Reads one settings file whole; a missing file is `absent`, one that cannot be read or parsed an error naming it. */
export async function readSettingsJson(file: string): Promise<SettingsJson> {
  let text: string
  try {
    const info = await stat(file)
    if (info.size > MAX_SETTINGS_BYTES) {
      return { status: 'error', error: new HooksError('HOOKS_ERR_SETTINGS_READ', `${file}: larger than 2 MiB; not read`, { file }) }
    }
    text = await readFile(file, 'utf8')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return { status: 'absent' }
    return { status: 'error', error: new HooksError('HOOKS_ERR_SETTINGS_READ', `${file}: cannot be read: ${describeCause(err)}`, { file, cause: err }) }
  }
  return parseSettingsJson(text, file)
}

export function parseSettingsJson(text: string, file: string): SettingsJson {
  let raw: unknown
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (err) {
    return { status: 'error', error: new HooksError('HOOKS_ERR_SETTINGS_JSON', `${file}: not valid JSON: ${describeCause(err)}; none of its settings apply`, { file, cause: err }) }
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { status: 'error', error: new HooksError('HOOKS_ERR_SETTINGS_JSON', `${file}: expected a JSON object at the top level`, { file }) }
  }
  return { status: 'ok', json: raw as Record<string, unknown> }
}

/** A `--settings` value: inline JSON when it starts with `{`, else a file path relative to `cwd`. */
export async function readSettingsArg(arg: string, cwd: string, reader: SettingsFileReader = directSettingsReader): Promise<{ file: string; read: SettingsJson }> {
  if (arg.trim().startsWith('{')) return { file: INLINE_SETTINGS, read: parseSettingsJson(arg, INLINE_SETTINGS) }
  const file = resolve(cwd, arg)
  const read = await reader.read(file)
  if (read.status !== 'absent') return { file, read }
  return { file, read: { status: 'error', error: new HooksError('HOOKS_ERR_SETTINGS_READ', `${file}: --settings file does not exist`, { file }) } }
}

export const INLINE_SETTINGS = '<inline --settings>'

/**
 * How the settings files are read: straight from disk, or through a caller's store that reads each
 * file once for several readers (modloop's session start). Whoever holds one answers as
 * {@link readSettingsJson} and {@link managedSettingsFiles} would.
 */
export interface SettingsFileReader {
  read(file: string): Promise<SettingsJson>
  managedFiles(dir: string): Promise<string[]>
}

export const directSettingsReader: SettingsFileReader = { read: readSettingsJson, managedFiles: managedSettingsFiles }

/** The hook keys of a settings file read whole. */
export function settingsHookKeys(read: SettingsJson, file: string): SettingsRead {
  return read.status === 'ok' ? pickHookKeys(read.json, file) : read
}

/** Keeps the hook-related keys; a key of the wrong type is reported and dropped, the others still apply. */
function pickHookKeys(raw: Record<string, unknown>, file: string): SettingsRead {
  const picked: Record<string, unknown> = {}
  const schema = settingsHooksSchema()
  for (const key of Object.keys(schema.shape)) if (key in raw) picked[key] = raw[key]
  const errors: HooksError[] = []
  let result = schema.safeParse(picked)
  if (!result.success) {
    for (const issue of result.error.issues) {
      const path = keyPath('', issue.path)
      errors.push(new HooksError('HOOKS_ERR_CONFIG', `${file}: ${path}: ${issue.message}`, { file, path }))
      delete picked[String(issue.path[0])]
    }
    result = schema.safeParse(picked)
  }
  return { status: 'ok', settings: result.success ? result.data : {}, errors }
}

/** `managed-settings.json`, then the `managed-settings.d/*.json` drop-ins alphabetically (hidden files skipped). */
export async function managedSettingsFiles(dir: string): Promise<string[]> {
  const files = [join(dir, 'managed-settings.json')]
  try {
    const dropIns = await readdir(join(dir, 'managed-settings.d'))
    for (const name of dropIns.filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort()) {
      files.push(join(dir, 'managed-settings.d', name))
    }
  } catch {
    // No drop-in directory: only the main file.
  }
  return files
}

/** Where managed policy settings live on this platform (spec §1.2). */
export function defaultManagedDir(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode'
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode'
  return '/etc/claude-code'
}
