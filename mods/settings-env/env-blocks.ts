import type { SettingsSource } from '../permissions/settings-sources.js'

/** What the `env` blocks of the settings sources set, and what they could not. */
export interface EnvBlocks {
  /** Name → value, the later source winning per name. */
  values: Map<string, { value: string; from: string }>
  /** Names a project-level source set that an untrusted workspace does not apply, each with its file. */
  ignored: { name: string; from: string }[]
  warnings: string[]
}

/**
 * Merges the `env` blocks of the sources, lowest precedence first, so a later source wins per
 * name. Numbers and booleans become their text, as in Claude Code; null, objects and arrays are
 * skipped with a warning (Claude Code would set "null" or "[object Object]"), and so is a name or
 * value no child process could be given. Project-level sources count only in a trusted workspace.
 */
export function mergeEnvBlocks(sources: readonly SettingsSource[], trusted: boolean): EnvBlocks {
  const out: EnvBlocks = { values: new Map(), ignored: [], warnings: [] }
  for (const { source, settings } of sources) {
    const block = settings.env
    if (block === undefined) continue
    if (typeof block !== 'object' || block === null || Array.isArray(block)) {
      out.warnings.push(`${source.label}: env: expected an object of variable names and values; its env is skipped`)
      continue
    }
    for (const [name, raw] of Object.entries(block)) {
      const value = typeof raw === 'string' ? raw : typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : undefined
      if (value === undefined) {
        out.warnings.push(`${source.label}: env.${name}: ${JSON.stringify(raw)} is not a string, number or boolean; not set`)
      } else if (name === '' || name.includes('=') || name.includes('\0') || value.includes('\0')) {
        // A child process cannot be given such a variable: spawning would fail for every command.
        out.warnings.push(`${source.label}: env: ${JSON.stringify(name)} cannot be an environment variable (an empty name, "=" in it, or a NUL byte); not set`)
      } else if (source.projectLevel && !trusted) {
        out.ignored.push({ name, from: source.label })
      } else {
        out.values.set(name, { value, from: source.label })
      }
    }
  }
  return out
}

/** One warning for the variables an untrusted workspace's settings would have set. */
export function ignoredEnvNotice(cwd: string, ignored: EnvBlocks['ignored']): string {
  const byFile = new Map<string, string[]>()
  for (const i of ignored) byFile.set(i.from, [...(byFile.get(i.from) ?? []), i.name])
  const rows = [...byFile].map(([file, names]) => `${names.join(', ')} (${file})`).join('; ')
  return `this workspace is not trusted, so the env of its project settings is not applied: ${rows}. To apply it, run \`modloop trust ${cwd}\`, or pass --trust-workspace for one run.`
}
