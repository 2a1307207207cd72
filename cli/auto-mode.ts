import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { claudeDir } from '../mods/permissions/settings-sources.js'
import { readJsonObject } from '../mods/_shared/json-file.js'
import { DEFAULT_RULES, labelOf, RULE_KEYS, rulesInUse, userAutoMode, type Rules } from '../mods/auto-mode/rules.js'
import type { CommandRun } from './command.js'
import type { Io } from './io.js'

/**
 * `modloop auto-mode config|defaults|reset`, as `claude auto-mode`: the auto mode classifier's
 * rules in use (the user's `autoMode` where set, the defaults otherwise), the defaults alone, and
 * taking the user's `autoMode` out of their settings.json.
 */
const settingsFile = (io: Io) => join(claudeDir({}, io.env), 'settings.json')

const print = (io: Io, rules: Rules) => io.stdout.write(`${JSON.stringify(rules, null, 2)}\n`)

export const autoModeConfig: CommandRun = async ({ io }) => {
  print(io, rulesInUse(await userAutoMode(settingsFile(io))))
  return 0
}

export const autoModeDefaults: CommandRun = async ({ values, io }) => {
  const prefix = typeof values.label === 'string' ? values.label.toLowerCase() : undefined
  const rules = Object.fromEntries(RULE_KEYS.map((key) => [key, DEFAULT_RULES[key].filter((e) => prefix === undefined || labelOf(e).toLowerCase().startsWith(prefix))])) as Rules
  print(io, rules)
  return 0
}

export const autoModeReset: CommandRun = async ({ values, io }) => {
  const file = settingsFile(io)
  let settings: Record<string, unknown>
  try {
    settings = await readJsonObject(file)
  } catch {
    io.stderr.write(`The settings file at ${file} contains invalid JSON — fix or remove it, then re-run reset.\n`)
    return 1
  }
  if (!Object.hasOwn(settings, 'autoMode')) {
    io.stdout.write(`Auto mode configuration is already at defaults — ${file} has no autoMode section.\n`)
    return 0
  }
  const set = settings.autoMode
  const sections = typeof set === 'object' && set !== null ? Object.entries(set).map(([key, v]) => (Array.isArray(v) ? `  - ${key} (${v.length} ${v.length === 1 ? 'entry' : 'entries'})` : `  - ${key}`)) : []
  io.stdout.write(`This resets auto mode to its defaults by removing the autoMode section from ${file}:\n${sections.join('\n')}${sections.length > 0 ? '\n' : ''}`)
  if (values.yes !== true) {
    io.stdout.write('Reset auto mode configuration to defaults? [y/N] ')
    if (!/^\s*y(es)?\s*$/i.test((await firstLine(io)) ?? '')) {
      io.stderr.write('\nAborted.\n')
      return 1
    }
  }
  const { autoMode: _removed, ...rest } = settings
  await writeFile(file, `${JSON.stringify(rest, null, 2)}\n`)
  io.stdout.write(`Auto mode configuration reset to defaults — autoMode section removed from ${file}.\nRun \`modloop auto-mode config\` to see the effective rules.\n`)
  return 0
}

/** The first line typed on stdin; nothing when stdin ends first (or there is none). */
async function firstLine(io: Io): Promise<string | undefined> {
  if (!io.stdin) return undefined
  const { createInterface } = await import('node:readline')
  const reader = createInterface({ input: io.stdin, terminal: false })
  try {
    for await (const line of reader) return line
    return undefined
  } finally {
    reader.close()
  }
}
