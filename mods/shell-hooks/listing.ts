import type { HookSource as ConfigHooks } from '../../runtime/loader/types.js'
import type { ShellHooksOptions } from './options.js'
import { loadSources } from './sources.js'
import { fingerprintOf, isProjectLevel, projectHookFingerprints, trustStorePath } from './trust.js'

/**
 * `/hooks`: the settings hooks that apply in `cwd` (user, project, local files and the config's own), by event;
 * project hooks not approved in this folder are marked (an interactive session leaves them out).
 */
export async function hooksText(
  cwd: string, env: NodeJS.ProcessEnv, from: { config?: readonly ConfigHooks[]; settings?: string[] }, opts: ShellHooksOptions,
): Promise<string> {
  const loaded = await loadSources({
    cwd, home: opts.home, managedDir: opts.managedDir, settingSources: opts.settingSources, walkUpToGitRoot: opts.walkUpToGitRoot,
    config: from.config ? [...from.config] : undefined, settings: from.settings, env,
  })
  const store = opts.trustStore ?? trustStorePath({}, env)
  const unapproved = new Set((await projectHookFingerprints(loaded.config, cwd, store).catch(() => []))
    .filter((f) => !f.approved).map((f) => f.fingerprint))
  const byEvent = new Map<string, string[]>()
  for (const h of loaded.config.handlers) {
    const rows = byEvent.get(h.event) ?? []
    const mark = isProjectLevel(h) && unapproved.has(fingerprintOf(h)) ? '  [not approved]' : ''
    rows.push(`    ${h.matcher ? `[${h.matcher}] ` : ''}${h.name}  (${h.source.label}: ${h.source.file})${mark}`)
    byEvent.set(h.event, rows)
  }
  const lines = [...byEvent].flatMap(([event, rows]) => [`  ${event}`, ...rows])
  const problems = [...loaded.errors.map((e) => `  error: ${e.message}`), ...loaded.warnings.map((w) => `  warning: ${w.message}`)]
  const read = loaded.files.filter((f) => f.present).map((f) => f.file)
  return [
    lines.length > 0 ? `Settings hooks (${loaded.config.handlers.length}):` : 'No settings hooks apply here.',
    ...lines,
    ...(loaded.disabled.all ? [`  all hooks are disabled${loaded.disabled.by ? ` by ${loaded.disabled.by}` : ''}`] : []),
    ...problems,
    `files read: ${read.length > 0 ? read.join(', ') : 'none'}`,
  ].join('\n')
}
