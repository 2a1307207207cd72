import { commandLine } from '../hooks-runner/command-line.js'
import type { CommandHandler } from '../hooks-runner/config-schema.js'
import type { ResolvedHandler } from '../hooks-runner/hooks-config.js'
import { VERSION } from '../core/version.js'
import type { CommandRun } from './command.js'
import { loadForCli } from './hooks-list.js'
import { loadFromArgs } from './load-args.js'
import { shown } from './load-errors.js'

/**
 * `modloop doctor`: what would go wrong when a session starts here, found without starting one
 * and without a model: settings files that are not JSON or hold values the permissions and hooks
 * would skip, a config or mod that fails to load, and command hooks whose program is missing.
 * Like `claude doctor` it reads the project's settings without asking for trust (and imports no
 * code of an untrusted project), and it exits 0 whatever it finds: it reports, it does not gate.
 */
export const doctor: CommandRun = async ({ values, io }) => {
  const dist = await loadFromArgs(values, io)
  const mods = dist.host.list().length
  const loadErrors = dist.host.errors.filter((e) => e.code !== 'MODLOOP_ERR_UNTRUSTED')
  await dist.host.close()
  const hooks = await loadForCli(values, io)
  const { readLayers, permissionsOptions } = await import('../mods/permissions/settings-load.js')
  const permissions = await readLayers({ cwd: io.cwd, options: permissionsOptions.parse(io.env.HOME ? { home: io.env.HOME } : {}), flags: {}, env: io.env })
  // The permissions and hooks read the same files: a file that is not JSON is one problem, not two.
  const settings = [...new Set([...hooks.errors.map((e) => e.message), ...hooks.warnings.map((w) => w.message), ...permissions.warnings])]
  const missing = hooks.config.handlers.flatMap((h) => {
    const problem = launchProblem(h, io.env, io.cwd)
    return problem ? [`${h.event} hook in ${shown(h.source.file, io.cwd)}: ${problem}`] : []
  })
  const sections: [string, string[]][] = [
    ['Invalid settings', settings],
    ['Config and mods', [...loadErrors.map((e) => `${e.code}${e.file ? ` ${shown(e.file, io.cwd)}` : ''}: ${e.message.split('\n')[0]}`), ...dist.warnings]],
    ['Hooks that cannot start', missing],
  ]
  const lines = ['modloop doctor', '', `Version: ${VERSION}`, `Node: ${process.version}`, `Config: ${dist.configFile ? shown(dist.configFile, io.cwd) : '(none: the default distribution)'}`, `Mods: ${mods} loaded`]
  for (const [title, found] of sections) if (found.length > 0) lines.push('', title, ...found.map((f) => `- ${f}`))
  const issues = sections.reduce((n, [, found]) => n + found.length, 0)
  lines.push('', issues === 0 ? 'No issues found.' : `${issues} issue${issues === 1 ? '' : 's'} found.`)
  io.stdout.write(`${lines.join('\n')}\n`)
  return 0
}

/** Why a command hook's program cannot run (missing, not executable), as the runner would find at its first call. */
function launchProblem(h: ResolvedHandler, env: Record<string, string | undefined>, cwd: string): string | undefined {
  if (h.config.type !== 'command') return undefined
  const placeholders = { CLAUDE_PROJECT_DIR: cwd, ...(h.source.pluginRoot ? { CLAUDE_PLUGIN_ROOT: h.source.pluginRoot } : {}), ...(h.source.pluginData ? { CLAUDE_PLUGIN_DATA: h.source.pluginData } : {}) }
  return commandLine(h.config as CommandHandler, h.source, { ...env, ...placeholders } as NodeJS.ProcessEnv, cwd).launchError
}
