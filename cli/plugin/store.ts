import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { editJson } from '../mcp/files.js'
import type { Io } from '../io.js'
import { usageError } from '../usage-error.js'
import {
  installedPluginsFile, knownMarketplacesFile, readInstalledPlugins, readKnownMarketplaces, settingsFileOf, SCOPES,
  type Env, type InstalledPlugins, type KnownMarketplace, type Scope,
} from '../../runtime/plugin-store/files.js'

export const run = promisify(execFile)

/** `-s, --scope user|project|local`; `fallback` when not given. */
export function scopeOf(value: unknown, fallback: Scope): Scope
export function scopeOf(value: unknown, fallback?: Scope): Scope | undefined
export function scopeOf(value: unknown, fallback?: Scope): Scope | undefined {
  if (value === undefined) return fallback
  if (typeof value === 'string' && (SCOPES as readonly string[]).includes(value)) return value as Scope
  throw usageError(`--scope: ${String(value)} is not one of user, project, local`)
}

/** What a command prints: a success line on stdout, or a failure on stderr and exit 1, marked as Claude Code marks them. */
export const ok = (io: Io, text: string): number => (io.stdout.write(`✔ ${text}\n`), 0)
export const fail = (io: Io, text: string): number => (io.stderr.write(`✘ ${text}\n`), 1)

export const envOf = (io: Io): Env => io.env

export async function writeKnown(env: Env, change: (known: Record<string, KnownMarketplace>) => void): Promise<void> {
  const known = readKnownMarketplaces(env)
  change(known)
  await editJson(knownMarketplacesFile(env), (json) => {
    for (const key of Object.keys(json)) delete json[key]
    Object.assign(json, known)
  })
}

export async function writeInstalled(env: Env, change: (installed: InstalledPlugins) => void): Promise<void> {
  const installed = readInstalledPlugins(env)
  change(installed)
  await editJson(installedPluginsFile(env), (json) => {
    json.version = 2
    json.plugins = installed.plugins
  })
}

/** Changes one key of a scope's settings file (`enabledPlugins`, `extraKnownMarketplaces`), keeping the rest. */
export function editSettingsMap(io: Io, scope: Scope, key: string, change: (map: Record<string, unknown>) => void): Promise<void> {
  return editJson(settingsFileOf(scope, io.env, io.cwd), (json) => {
    const map = typeof json[key] === 'object' && json[key] !== null && !Array.isArray(json[key]) ? (json[key] as Record<string, unknown>) : {}
    change(map)
    json[key] = map
  })
}
