import { existsSync } from 'node:fs'
import { isAbsolute, relative, resolve } from 'node:path'
import { z } from 'zod'
import { onFirstUse } from '../../../core/on-first-use.js'
import { formatPath } from '../../../runtime/loader/config-schema.js'
import type { PluginPaths } from '../../../runtime/loader/types.js'

/**
 * The manifest's component fields, as Claude Code's plugins reference gives them: paths relative
 * to the plugin root (`./`-prefixed), one or a list; `hooks` and `mcpServers` may also be inline.
 * Built on first use: only a run that loads a plugin reads a manifest.
 */
const fields = onFirstUse(() => {
  const path = z.string().min(1)
  const paths = z.union([path, z.array(path)])
  const inline = z.record(z.string(), z.unknown())
  const pathsOrInline = z.union([path, inline, z.array(z.union([path, inline]))])
  return {
    commands: paths,
    agents: paths,
    skills: paths,
    outputStyles: paths,
    hooks: pathsOrInline,
    mcpServers: pathsOrInline,
  } satisfies Record<string, z.ZodType>
})

export type ComponentField = keyof ReturnType<typeof fields>

/** A hooks entry of the manifest: a file to read (absolute), or hooks given inline. */
export type HooksRef = { file: string } | { inline: Record<string, unknown>; label: string }

export interface ManifestComponents {
  paths: PluginPaths
  hooks: HooksRef[]
  warnings: string[]
}

/**
 * Reads the component fields of a manifest. Each field is checked on its own: one of the wrong
 * shape is a warning naming the plugin, the manifest and the field, and the plugin loads without
 * it (its default directory still counts); so is each path that is not `./`-relative, leaves the
 * plugin directory or does not exist. `${CLAUDE_PLUGIN_ROOT}` in a path is the plugin directory.
 */
export function readManifestComponents(raw: Record<string, unknown>, root: string, manifestFile: string, plugin: string): ManifestComponents {
  const out: ManifestComponents = { paths: {}, hooks: [], warnings: [] }
  const warn = (field: string, problem: string) => out.warnings.push(`plugin ${plugin}: ${manifestFile}: "${field}": ${problem}`)
  const schemas = fields()
  for (const field of Object.keys(schemas) as ComponentField[]) {
    if (raw[field] === undefined) continue
    const parsed = schemas[field].safeParse(raw[field])
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      const at = formatPath([field, ...issue.path])
      warn(at, `${expected(field)}; the field is ignored, the rest of the plugin loads`)
      continue
    }
    const entries = Array.isArray(parsed.data) ? parsed.data : [parsed.data]
    const many = Array.isArray(parsed.data)
    const files: string[] = []
    entries.forEach((entry, i) => {
      const at = many ? `${field}[${i}]` : field
      if (typeof entry !== 'string') {
        if (field === 'hooks') out.hooks.push({ inline: entry, label: `${manifestFile} (${at})` })
        else out.paths.mcpServers = [...(out.paths.mcpServers ?? []), { origin: `${manifestFile} (${at})`, servers: entry }]
        return
      }
      const file = resolveInside(entry, root)
      if (typeof file !== 'string') return warn(at, `${file.problem}; that path is ignored`)
      if (field === 'hooks') out.hooks.push({ file })
      else if (field === 'mcpServers') out.paths.mcpServers = [...(out.paths.mcpServers ?? []), { origin: file, file }]
      else files.push(file)
    })
    // A custom path replaces the default directory, as Claude Code reads them; bad entries drop
    // out, and a field left with none leaves the default directory in force.
    const replaces = field === 'commands' || field === 'agents' || field === 'skills' || field === 'outputStyles'
    if (replaces && files.length > 0) out.paths[field] = files
  }
  return out
}

function expected(field: ComponentField): string {
  return field === 'hooks' || field === 'mcpServers'
    ? 'expected a path ("./..."), an inline object, or a list of them'
    : 'expected a path ("./...") or a list of paths'
}

/** A manifest path as an absolute path inside the plugin, or why it cannot be one. */
function resolveInside(entry: string, root: string): string | { problem: string } {
  const text = entry.replace(/\$\{CLAUDE_PLUGIN_ROOT\}/g, root)
  if (text === entry && !entry.startsWith('./')) return { problem: `"${entry}" must be relative to the plugin root and start with "./"` }
  const file = resolve(root, text)
  const rel = relative(root, file)
  if (rel.startsWith('..') || isAbsolute(rel)) return { problem: `"${entry}" lies outside the plugin directory` }
  if (!existsSync(file)) return { problem: `"${entry}" does not exist (${file})` }
  return file
}
