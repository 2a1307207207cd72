import { homedir } from 'node:os'
import type { ModHost } from '../../core/mod/host.js'
import type { HookSource as ConfigHooks } from '../../core/loader/types.js'
import { fingerprintOf, isProjectLevel, projectHookFingerprints, trustStorePath } from '../shell-hooks/trust.js'

/** `/mods`: every loaded mod in load order (the order their handlers run in), then the load errors. */
export function modsText(host: ModHost, configFile: string | undefined): string {
  const mods = host.list()
  const width = Math.max(4, ...mods.map((m) => m.name.length)) + 2
  const rows = mods.map((m) => `  ${m.name.padEnd(width)}${m.status.padEnd(10)}${m.source ?? ''}`)
  const errors = host.errors.map((e) => `  ${e.code}${e.mod ? ` ${e.mod}` : ''}: ${e.message.split('\n')[0]}`)
  return [
    `config: ${configFile ?? '(none: the default distribution)'}`,
    `mods (${mods.length}, in load order):`, ...rows,
    ...(errors.length > 0 ? [`load errors (${errors.length}):`, ...errors] : ['no load errors']),
  ].join('\n')
}

/**
 * `/hooks`: the settings hooks that apply in `cwd` (user, project, local files and the config's own), by event;
 * project hooks not approved in this folder are marked (an interactive session leaves them out).
 */
export async function hooksText(cwd: string, env: Record<string, string | undefined>, extra: readonly ConfigHooks[]): Promise<string> {
  const { loadHookSources } = await import('../../hooks-runner/index.js')
  const loaded = await loadHookSources({
    cwd, projectDir: cwd, home: env.HOME || homedir(), env: env as NodeJS.ProcessEnv, managedDir: null,
    extra: extra.map((h) => ({ source: h.source, hooks: h.hooks, label: 'modloop config' })),
  })
  const unapproved = new Set((await projectHookFingerprints(loaded.config, cwd, trustStorePath({}, env)).catch(() => []))
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
