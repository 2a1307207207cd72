import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, join, relative, resolve, isAbsolute } from 'node:path'
import { z } from 'zod'
import { describeError, ModloopError } from '../../../core/errors.js'
import { onFirstUse } from '../../../core/on-first-use.js'
import { formatPath } from '../../../runtime/loader/config-schema.js'
import { MANIFEST, type PluginDir } from '../../../runtime/loader/plugin.js'
import { readManifestComponents, type HooksRef } from './components.js'

// Built on first use: only a run that loads a plugin reads a manifest.
const userConfigField = onFirstUse(() => z.looseObject({
  type: z.string(),
  default: z.unknown().optional(),
  required: z.boolean().optional(),
  options: z.array(z.unknown()).optional(),
}))

const manifestSchema = onFirstUse(() => z.looseObject({
  name: z.string().min(1),
  version: z.string().optional(),
  description: z.string().optional(),
  userConfig: z.record(z.string(), userConfigField()).optional(),
}))

const hooksFileSchema = onFirstUse(() => z.looseObject({
  description: z.string().optional(),
  modules: z.array(z.string().min(1)).optional(),
  hooks: z.record(z.string(), z.array(z.unknown())).optional(),
}))

export type PluginManifest = z.infer<ReturnType<typeof manifestSchema>>
export type UserConfigField = z.infer<ReturnType<typeof userConfigField>>

const HOOKS_FILE = join('hooks', 'hooks.json')

/**
 * Reads `.claude-plugin/plugin.json` and the hooks: `hooks/hooks.json` when there is one, and the
 * files or inline hooks the manifest's `hooks` names. A plugin needs no hooks: its commands,
 * skills, agents, output styles and MCP servers are read by the mods that own them, from the
 * default directories or the manifest's paths. A manifest without a usable name (or a bad
 * `userConfig`) → MODLOOP_ERR_PLUGIN naming it; a bad component field or hooks file is a warning
 * naming it, and the plugin loads without that part.
 */
export async function readPluginDir(root: string): Promise<PluginDir> {
  const manifestFile = join(root, MANIFEST)
  const raw = await readJson(manifestFile)
  const manifest = parseWith(manifestSchema(), raw, manifestFile)
  const components = readManifestComponents(raw as Record<string, unknown>, root, manifestFile, manifest.name)
  const plugin: PluginDir = {
    root, manifest, modules: [], hooks: [], paths: components.paths, warnings: components.warnings,
    optionsFor: (given) => pluginOptions(manifest, given, manifestFile),
  }
  const defaultHooks = join(root, HOOKS_FILE)
  const refs: HooksRef[] = existsSync(defaultHooks) ? [{ file: defaultHooks }] : []
  // The default file named again in the manifest is read once.
  refs.push(...components.hooks.filter((h) => !('file' in h) || h.file !== defaultHooks))
  for (const ref of refs) {
    const source = 'file' in ref ? ref.file : ref.label
    let spec: z.output<ReturnType<typeof hooksFileSchema>>
    try {
      const value = 'file' in ref ? await readJson(ref.file) : ref.inline
      spec = parseWith(hooksFileSchema(), asHooksFile(value), source)
    } catch (err) {
      plugin.warnings.push(`plugin ${manifest.name}: ${describeError(err)}; its hooks are not loaded`)
      continue
    }
    plugin.modules.push(...(spec.modules ?? []).map((m) => moduleFile(m, 'file' in ref ? dirname(ref.file) : root, root, manifest.name, source)))
    if (spec.hooks) plugin.hooks.push({ source, hooks: spec.hooks })
  }
  return plugin
}

/** Inline manifest hooks may be the event map itself, or shaped as hooks.json is (`{ "hooks": { … } }`). */
function asHooksFile(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value
  const v = value as Record<string, unknown>
  return 'hooks' in v || 'modules' in v || 'description' in v ? v : { hooks: v }
}

/** A hooks `modules` entry as an absolute path; the layout keeps a plugin's code inside its own directory. */
function moduleFile(m: string, from: string, root: string, plugin: string, source: string): string {
  const file = resolve(from, m)
  const rel = relative(root, file)
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw new ModloopError('MODLOOP_ERR_PLUGIN', `${plugin}: module "${m}" in ${source} lies outside the plugin directory`, {
      mod: plugin, file: source, stage: 'resolve',
    })
  }
  return file
}

/**
 * userConfig defaults, overridden by the options the config gives. A value of the wrong type, or
 * a required field left without a value → MODLOOP_ERR_MOD_OPTIONS naming the plugin and field.
 */
function pluginOptions(manifest: PluginManifest, given: Record<string, unknown> | undefined, source: string): Record<string, unknown> {
  const name = manifest.name
  const out: Record<string, unknown> = { ...given }
  for (const [field, spec] of Object.entries(manifest.userConfig ?? {})) {
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
    throw new ModloopError('MODLOOP_ERR_PLUGIN', `${file}: cannot read: ${describeError(err)}`, { file, stage: 'resolve', cause: err })
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
