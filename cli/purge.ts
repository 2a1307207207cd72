import { createInterface } from 'node:readline'
import { rm } from 'node:fs/promises'
import { resolve } from 'node:path'
import { modloopHome } from '../mods/transcripts/store/paths.js'
import { trustStorePath, writeTrustStore, type TrustStore } from '../mods/permissions/trust-store.js'
import { describeError } from '../core/errors.js'
import type { CommandRun } from './command.js'
import type { Io } from './io.js'
import { readJsonObject } from '../mods/_shared/json-file.js'
import { planAll, planProject, records, type PurgeItem } from './purge-plan.js'

const NOTE = 'Purging deletes data only on this computer, not what a session store (Postgres) keeps.'
const NO_KEYBOARD = "modloop can't read the keyboard here: stdin is not a terminal."

/**
 * `modloop purge [path] [--all] [--dry-run] [-i] [-y]`: deletes a project's modloop data (its
 * sessions, their task lists, its prompt history, its trust store entries) from this computer,
 * as `claude purge` does Claude Code's. It prints the plan first; without `-y` it asks once,
 * reading the answer from stdin, and anything but yes deletes nothing (exit 1). `-i` asks item
 * by item, and so needs a terminal.
 */
export const purge: CommandRun = async ({ values, positionals, io }) => {
  const all = values.all === true
  const interactive = values.interactive === true
  if (all && positionals.length > 0) return fail(io, 'Use either a path or --all, not both.')
  if (all && interactive) return fail(io, "-i/--interactive doesn't work with --all.")
  const terminal = (io.stdin as { isTTY?: boolean } | undefined)?.isTTY === true
  // Claude Code picks the project from a list when none is named; here it must be named.
  if (!all && positionals.length === 0) return fail(io, 'Name a project path: modloop purge <path>, or --all for every project. Add --dry-run to see what it would delete.')
  const project = all ? undefined : resolve(io.cwd, positionals[0]!)
  const items = project ? await planProject(project, io.env) : await planAll(io.env)
  if (items.length === 0) return fail(io, project ? `No modloop project data found for ${project} under ${modloopHome(io.env)}.` : `No modloop project data found under ${modloopHome(io.env)}.`)
  const target = project ?? 'all projects'
  io.stdout.write(`\nPurge plan for ${target}:\n\n${items.map(describe).join('')}\n\n${NOTE}\n`)
  if (values['dry-run'] === true) {
    io.stdout.write(`Dry run: ${items.length} item(s) would be deleted.\n`)
    return 0
  }
  if (interactive && !terminal) return fail(io, `${NO_KEYBOARD}\nOr run without -i to confirm the whole list once; that [y/N] prompt reads stdin.\nStopped. Nothing was deleted.`)
  const answers = lines(io)
  let chosen = items
  if (interactive) {
    chosen = []
    for (const item of items) {
      io.stdout.write(`Delete ${item.path}? [y/N] `)
      if (yes(await answers.next())) chosen.push(item)
    }
    if (chosen.length === 0) return stopped(io, answers)
  } else if (values.yes !== true) {
    io.stdout.write(`Delete ${items.length} item(s) for ${target} from this computer? This can't be undone. [y/N] `)
    if (!yes(await answers.next())) return stopped(io, answers)
  }
  answers.close()
  const failures = await remove(chosen, io.env)
  for (const failure of failures) io.stderr.write(`${failure}\n`)
  const done = chosen.length - failures.length
  io.stdout.write(`${interactive || values.yes !== true ? '\n' : ''}Purged ${done} item${done === 1 ? '' : 's'} ${project ? `for ${project}` : 'across all projects'}.\n`)
  if (failures.length === 0) return 0
  io.stderr.write('What could not be deleted is still on disk: fix the cause and run the command again, or delete those paths by hand.\n')
  return 1
}

const LABEL = { dir: 'dir:   ', file: 'file:  ', trust: 'trust: ' } as const

function describe(item: PurgeItem): string {
  return `  ${LABEL[item.kind]} ${item.path}\n           ${item.reason}\n`
}

/** Deletes each item, going on past a failure; answers what could not be deleted. */
async function remove(items: readonly PurgeItem[], env: Io['env']): Promise<string[]> {
  const failures: string[] = []
  const workspaces = items.filter((i) => i.kind === 'trust').map((i) => i.path)
  for (const item of items.filter((i) => i.kind !== 'trust')) {
    await rm(item.path, { recursive: true, force: true }).catch((err) => failures.push(`Could not delete ${item.path} — ${describeError(err)}`))
  }
  if (workspaces.length > 0) {
    const file = trustStorePath({ home: env.HOME || undefined }, env)
    try {
      const store = await readJsonObject(file)
      const kept = Object.fromEntries(Object.entries(store).map(([key, value]) => [key, typeof value === 'object' && value !== null && !Array.isArray(value) ? withoutKeys(records(store, key), workspaces) : value]))
      await writeTrustStore(file, kept as TrustStore)
    } catch (err) {
      failures.push(`Could not remove ${workspaces.join(', ')} from ${file} — ${describeError(err)}`)
    }
  }
  return failures
}

const withoutKeys = (record: Record<string, unknown>, keys: readonly string[]) => Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key)))

const yes = (answer: string | undefined) => answer !== undefined && /^\s*y(es)?\s*$/i.test(answer)

function stopped(io: Io, answers: { close(): void }): number {
  answers.close()
  io.stdout.write('\n')
  return fail(io, 'Stopped. Nothing was deleted.')
}

function fail(io: Io, message: string): number {
  io.stderr.write(`${message}\n`)
  return 1
}

/** The answers typed on stdin, one line each; none once stdin ends (or when there is none). */
function lines(io: Io): { next(): Promise<string | undefined>; close(): void } {
  if (!io.stdin) return { next: async () => undefined, close: () => {} }
  const reader = createInterface({ input: io.stdin, terminal: false })
  const iterator = reader[Symbol.asyncIterator]()
  return {
    next: async () => {
      const line = await iterator.next()
      return line.done ? undefined : line.value
    },
    close: () => reader.close(),
  }
}
