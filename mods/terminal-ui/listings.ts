import type { ModHost } from '../../core/mod/host.js'

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
