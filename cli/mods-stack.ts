import { EVENT_NAMES, isEventName } from '../core/events/catalog.js'
import type { CommandRun } from './command.js'
import { loadFromArgs } from './load-args.js'
import { errorJson, formatErrors } from './load-errors.js'
import { table } from './table.js'
import { usageError } from './usage-error.js'

/** `modloop mods stack <event>`: the handlers of one event, outermost first. Exit 1 if any mod failed to load. */
export const modsStack: CommandRun = async ({ values, positionals, io }) => {
  const event = positionals[0]!
  if (!isEventName(event)) throw usageError(`unknown event "${event}"; events: ${EVENT_NAMES.join(', ')}`)
  const { host } = await loadFromArgs(values, io)
  // Modules an untrusted folder holds were listed, not imported: a note, not a failure.
  const errors = host.errors.filter((e) => e.code !== 'MODLOOP_ERR_UNTRUSTED')
  const stack = host.bus.stack(event).map((h, i) => ({ position: i + 1, ...h }))
  if (values.json === true) {
    io.stdout.write(`${JSON.stringify({ event, stack, errors: errors.map(errorJson) }, null, 2)}\n`)
  } else if (stack.length === 0) {
    io.stdout.write(`${event}: no handlers\n`)
  } else {
    const rows = stack.map((h) => [
      String(h.position), h.mod, String(h.stage), h.matcher ?? '',
      [h.failClosed && 'failClosed', h.hasCatch && 'catch', h.before.length > 0 && `before:${h.before.join(',')}`, h.after.length > 0 && `after:${h.after.join(',')}`]
        .filter(Boolean).join(' '),
    ])
    io.stdout.write(`${event} (outermost first):\n${table(['#', 'MOD', 'STAGE', 'MATCHER', 'FLAGS'], rows)}`)
  }
  io.stderr.write(formatErrors(host.errors, io.cwd))
  await host.close()
  return errors.length > 0 ? 1 : 0
}
