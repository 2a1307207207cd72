import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, join, relative, resolve, isAbsolute } from 'node:path'
import { z } from 'zod'
import { ModloopError, describeError } from '../errors.js'
import { formatPath } from './config-schema.js'

const userConfigField = z.looseObject({
  type: z.string(),
  default: z.unknown().optional(),
  required: z.boolean().optional(),
  options: z.array(z.unknown()).optional(),
})

const manifestSchema = z.looseObject({
  name: z.string().min(1),
  version: z.string().optional(),
  description: z.string().optional(),
  userConfig: z.record(z.string(), userConfigField).optional(),
})

const hooksFileSchema = z.looseObject({
  description: z.string().optional(),
  modules: z.array(z.string().min(1)).optional(),
  hooks: z.record(z.string(), z.array(z.unknown())).optional(),
})

export type PluginManifest = z.infer<typeof manifestSchema>
export type UserConfigField = z.infer<typeof userConfigField>

/** A plugin directory in the Claude Code layout, read but not yet imported. */
export interface PluginDir {
  root: string
  manifest: PluginManifest
  /** Absolute paths of the hooks modules, in the order hooks.json lists them. */
  modules: string[]
  /** Settings hooks the plugin ships, with the file they came from. */
  hooks?: { source: string; hooks: Record<string, unknown[]> }
  /** What could not be read (a broken hooks.json), naming the file; the rest of the plugin loads. */
  warnings: string[]
}

export const MANIFEST = join('.claude-plugin', 'plugin.json')
const HOOKS_FILE = join('hooks', 'hooks.json')

export function isPluginDir(dir: string): boolean {
  return existsSync(join(dir, MANIFEST))
}

/**
 * Reads `.claude-plugin/plugin.json` and, when there is one, `hooks/hooks.json`. A plugin needs no
 * hooks: its commands, skills, agents and MCP servers are read by the mods that own them. A
 * malformed manifest → MODLOOP_ERR_PLUGIN naming it; a malformed hooks.json is a warning naming
 * it, and the plugin loads without those hooks.
 */
export async function readPluginDir(root: string): Promise<PluginDir> {
  const manifestFile = join(root, MANIFEST)
  const manifest = parseWith(manifestSchema, await readJson(manifestFile), manifestFile)
  const hooksFile = join(root, HOOKS_FILE)
  const plugin: PluginDir = { root, manifest, modules: [], warnings: [] }
  if (!existsSync(hooksFile)) return plugin
  let spec: z.output<typeof hooksFileSchema>
  try {
    spec = parseWith(hooksFileSchema, await readJson(hooksFile), hooksFile)
  } catch (err) {
    plugin.warnings.push(`plugin ${manifest.name}: ${describeError(err)}; its hooks are not loaded`)
    return plugin
  }
  plugin.modules = (spec.modules ?? []).map((m) => {
    const file = resolve(dirname(hooksFile), m)
    const rel = relative(root, file)
    // The layout keeps a plugin's code inside its own directory.
    if (rel.startsWith('..') || isAbsolute(rel)) {
      throw new ModloopError('MODLOOP_ERR_PLUGIN', `${manifest.name}: module "${m}" in ${hooksFile} lies outside the plugin directory`, {
        mod: manifest.name, file: hooksFile, stage: 'resolve',
      })
    }
    return file
  })
  if (spec.hooks) plugin.hooks = { source: hooksFile, hooks: spec.hooks }
  return plugin
}

/** The mod name of a plugin's i-th module: the plugin's name, then `<plugin>:<basename>` for the others. */
export function pluginModName(plugin: PluginDir, index: number): string {
  if (index === 0) return plugin.manifest.name
  const base = plugin.modules[index]!.split(/[\\/]/).pop()!.replace(/\.[cm]?[jt]sx?$/, '')
  return `${plugin.manifest.name}:${base}`
}

/**
 * userConfig defaults, overridden by the options the config gives. A value of the wrong type, or
 * a required field left without a value → MODLOOP_ERR_MOD_OPTIONS naming the plugin and field.
 */
export function pluginOptions(plugin: PluginDir, given: Record<string, unknown> | undefined, source: string): Record<string, unknown> {
  const name = plugin.manifest.name
  const out: Record<string, unknown> = { ...given }
  for (const [field, spec] of Object.entries(plugin.manifest.userConfig ?? {})) {
    let value = out[field]
    // A string outside the declared choices counts as unset, so the default applies.
    if (value !== undefined && spec.options && !spec.options.includes(value)) value = undefined
    if (value === undefined) value = spec.default
    if (value === undefined) {
      if (spec.required) {
        throw new ModloopError('MODLOOP_ERR_MOD_OPTIONS', `${name}: option "${field}" is required by plugin.json userConfig and has no value (${source})`, {
          mod: name, field, file: source, stage: 'options',
        })
      }
      delete out[field]
      continue
    }
    const problem = typeProblem(spec.type, value)
    if (problem) {
      throw new ModloopError('MODLOOP_ERR_MOD_OPTIONS', `${name}: option "${field}" ${problem} (${source})`, {
        mod: name, field, file: source, stage: 'options',
      })
    }
    out[field] = value
  }
  return out
}

const STRINGS = new Set(['string', 'directory', 'file'])

function typeProblem(type: string, value: unknown): string | undefined {
  const isStrings = Array.isArray(value) && value.every((v) => typeof v === 'string')
  if (STRINGS.has(type) && typeof value !== 'string' && !isStrings) return `must be a string (userConfig type "${type}")`
  if (type === 'number' && typeof value !== 'number') return 'must be a number'
  if (type === 'boolean' && typeof value !== 'boolean') return 'must be a boolean'
  return undefined
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8'))
  } catch (err) {
    const reason = describeError(err)
    throw new ModloopError('MODLOOP_ERR_PLUGIN', `${file}: cannot read: ${reason}`, { file, stage: 'resolve', cause: err })
  }
}

function parseWith<S extends z.ZodType>(schema: S, raw: unknown, file: string): z.output<S> {
  const parsed = schema.safeParse(raw)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]!
  const field = formatPath(issue.path)
  throw new ModloopError('MODLOOP_ERR_PLUGIN', `${file}: ${field ? `"${field}"` : '(root)'}: ${issue.message}`, {
    file, field, stage: 'resolve', cause: parsed.error,
  })
}
