import type { LoadedHookSources } from '../hooks-runner/index.js'
import { loadSources } from '../mods/shell-hooks/sources.js'
import { projectHookFingerprints, trustStorePath, approveProjectHooks } from '../mods/shell-hooks/trust.js'
import type { CommandRun, Values } from './command.js'
import type { Io } from './io.js'
import { loadFromArgs } from './load-args.js'
import { shown } from './load-errors.js'
import { table } from './table.js'

/** Every hook source the shell-hooks mod would read for this directory, with the distribution's own hooks. */
export async function loadForCli(values: Values, io: Io): Promise<LoadedHookSources> {
  const dist = await loadFromArgs(values, io)
  await dist.host.close()
  const settings = Array.isArray(values.settings) ? values.settings.map(String) : undefined
  return loadSources({ cwd: io.cwd, home: io.env.HOME || undefined, settings, config: dist.hooks, env: io.env })
}

/**
 * `modloop hooks list`: the resolved settings hooks in settings order — event, matcher, what runs,
 * and the file it came from — then load errors. Project hooks carry their review fingerprint;
 * `--approve` records every listed project hook as reviewed for this workspace.
 */
export const hooksList: CommandRun = async ({ values, io }) => {
  const loaded = await loadForCli(values, io)
  const store = trustStorePath({ home: io.env.HOME || undefined }, io.env)
  const fingerprints = new Map((await projectHookFingerprints(loaded.config, io.cwd, store)).map((f) => [`${f.file}\0${f.event}\0${f.matcher}\0${f.command}`, f]))
  const hooks = loaded.config.handlers.map((h) => {
    const f = fingerprints.get(`${h.source.file}\0${h.event}\0${h.matcher ?? ''}\0${h.name}`)
    return {
      event: h.event, matcher: h.matcher ?? '', type: h.config.type, command: h.name, timeout: h.config.timeout,
      source: h.source.label, file: h.source.file, path: h.path,
      ...(f ? { fingerprint: f.fingerprint, approved: f.approved } : {}),
    }
  })
  if (values.approve === true) {
    const pending = [...fingerprints.values()].filter((f) => !f.approved)
    await approveProjectHooks(store, io.cwd, pending.map((f) => f.fingerprint))
    io.stderr.write(`approved ${pending.length} project hook(s) for ${io.cwd} (${store})\n`)
  }
  const errors = loaded.errors.map((e) => ({ code: e.code, message: e.message, file: e.file, path: e.path }))
  if (values.json === true) {
    io.stdout.write(`${JSON.stringify({ hooks, files: loaded.files, disabled: loaded.disabled, errors, warnings: loaded.warnings }, null, 2)}\n`)
  } else {
    const rows = hooks.map((h) => [h.event, h.matcher || '*', h.type, h.command, `${h.source}: ${shown(h.file, io.cwd)}`, h.fingerprint ? (h.approved ? 'reviewed' : `not reviewed (${h.fingerprint})`) : ''])
    io.stdout.write(rows.length > 0 ? table(['EVENT', 'MATCHER', 'TYPE', 'COMMAND', 'SOURCE', 'REVIEW'], rows) : 'no settings hooks\n')
    for (const e of errors) io.stdout.write(`error: ${e.message}\n`)
    for (const w of loaded.warnings) io.stdout.write(`warning: ${w.message}\n`)
  }
  return errors.length > 0 ? 1 : 0
}
