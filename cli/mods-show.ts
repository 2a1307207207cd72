import type { CommandRun } from './command.js'
import { loadFromArgs } from './load-args.js'
import { errorJson, shown } from './load-errors.js'
import { usageError } from './usage-error.js'

/** `modloop mods show NAME`: one mod in full — where it came from, its status, its options as given, its load errors. */
export const modsShow: CommandRun = async ({ values, positionals, io }) => {
  const name = positionals[0]!
  const { host } = await loadFromArgs(values, io)
  try {
    const mod = host.list().find((m) => m.name === name)
    const errors = host.errors.filter((e) => e.mod === name).map(errorJson)
    // A mod whose options or register failed is not in the host, but it is in the distribution: its errors say why.
    if (!mod && errors.length === 0) throw usageError(`no mod "${name}" in this distribution; \`modloop mods list\` names them`)
    const source = mod?.source ?? host.errors.find((e) => e.mod === name)?.file
    const record = { name, status: mod?.status ?? 'failed', version: mod?.version, source, description: mod?.def.description, options: mod?.options, errors }
    if (values.json === true) {
      io.stdout.write(`${JSON.stringify(record, null, 2)}\n`)
      return errors.length > 0 ? 1 : 0
    }
    const rows: [string, string | undefined][] = [
      ['name', name], ['status', record.status], ['version', record.version], ['source', shown(source, io.cwd)], ['description', record.description],
    ]
    for (const [key, value] of rows) if (value) io.stdout.write(`${key}: ${value}\n`)
    if (mod) io.stdout.write(`options: ${JSON.stringify(mod.options ?? {}, null, 2)}\n`)
    for (const e of errors) io.stdout.write(`error: ${e.code}: ${e.message}\n`)
    return errors.length > 0 ? 1 : 0
  } finally {
    await host.close()
  }
}
