import { unreadKeyWarnings } from '../runtime/loader/unread-keys.js'
import type { CommandRun } from './command.js'
import { loadFromArgs } from './load-args.js'
import { errorJson, formatErrors, shown } from './load-errors.js'
import { table } from './table.js'
import { fitLines, terminalWidth } from './terminal-width.js'

/** `modloop mods list`: the distribution's mods in load order, its plugins and hooks, then its load errors. Exit 1 if any mod failed. */
export const modsList: CommandRun = async ({ values, io }) => {
  const { host, configFile, hooks, plugins, needsMods, warnings: configWarnings } = await loadFromArgs(values, io)
  const warnings = [...configWarnings, ...unreadKeyWarnings(needsMods, host)]
  const mods = host.list().map((m) => ({ name: m.name, source: m.source, version: m.version, options: m.options, status: m.status }))
  // Modules an untrusted folder holds are listed, not imported: they are not errors of the distribution.
  const heldBack = host.errors.filter((e) => e.code === 'MODLOOP_ERR_UNTRUSTED')
  const errors = host.errors.filter((e) => e.code !== 'MODLOOP_ERR_UNTRUSTED')
  if (values.json === true) {
    const out = { configFile, mods, plugins: plugins.map((p) => ({ name: p.name, path: p.root, ...(p.version ? { version: p.version } : {}) })), heldBack: heldBack.map((e) => e.file), hooks: hooks.map((h) => ({ source: h.source, events: Object.keys(h.hooks) })), errors: errors.map(errorJson), warnings }
    io.stdout.write(`${JSON.stringify(out, null, 2)}\n`)
  } else {
    io.stdout.write(`config: ${configFile ? shown(configFile, io.cwd) : '(none: the default distribution)'}\n`)
    // One line per mod, fitted to the terminal: options are summarised by name (`mods show NAME` or --json for their values).
    const rows = mods.map((m) => [m.name, m.status, m.version ?? '', shown(m.source, io.cwd), optionNames(m.options)])
    io.stdout.write(rows.length > 0 ? fitLines(table(['NAME', 'STATUS', 'VERSION', 'SOURCE', 'OPTIONS'], rows), terminalWidth(io)) : 'no mods loaded\n')
    // A plugin is listed whether or not it holds modules: its commands, skills and agents are the other mods' to load.
    for (const p of plugins) io.stdout.write(`plugin ${p.name}${p.version ? ` ${p.version}` : ''} from ${shown(p.root, io.cwd)}\n`)
    for (const h of hooks) io.stdout.write(`settings hooks from ${shown(h.source, io.cwd)}: ${Object.keys(h.hooks).join(', ')}\n`)
    for (const e of heldBack) io.stdout.write(`not imported (this folder is not trusted; \`modloop trust\` or --trust-workspace loads it): ${shown(e.file, io.cwd)}\n`)
    io.stdout.write(formatErrors(errors, io.cwd))
    for (const w of warnings) io.stderr.write(`modloop: warning: ${w}\n`)
  }
  await host.close()
  return errors.length > 0 ? 1 : 0
}

/** The options a mod was given, by name only: `-` for none. */
function optionNames(options: unknown): string {
  const keys = options && typeof options === 'object' ? Object.keys(options) : []
  return keys.length === 0 ? '-' : keys.join(', ')
}
