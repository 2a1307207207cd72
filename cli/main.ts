import { parseArgs } from 'node:util'
import { config as zodConfig } from 'zod'
import { describeError, isModloopError } from '../core/errors.js'
import type { Command } from './command.js'
import { COMMANDS, findCommand } from './commands.js'
import { processIo, type Io } from './io.js'
import { usageError } from './usage-error.js'
import { expandVariadic } from './variadic-args.js'
import { fillOptionalValues } from './optional-value.js'
import { fromParseArgs, positionalError } from './parse-errors.js'
import { VERSION } from '../core/version.js'

/**
 * The CLI: picks a command from the table, parses its options with node:util parseArgs, and runs
 * it. Returns the exit code: 0 done, 1 an error, bad usage included (its message on stderr), as
 * Claude Code's CLI exits 1 for both. Only the chosen command's implementation is imported, so
 * `--version` stays instant.
 */
export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  // zod compiles a parser per schema on its first parse (new Function), which a short run never
  // earns back. A process-wide setting: only where the CLI owns the process, not in a test's.
  if (io.ownsProcess) zodConfig({ jitless: true })
  let command: Command | undefined
  try {
    const first = argv[0]
    if (first === '--version' || first === '-v') {
      if (argv.length > 1) throw usageError(`${first} takes no arguments`)
      io.stdout.write(`${VERSION}\n`)
      return 0
    }
    if (first === '--help' || first === '-h') {
      io.stdout.write(usage())
      return 0
    }
    const group = groupOf(argv)
    if (group) {
      const asked = argv[1] === '--help' || argv[1] === '-h'
      ;(asked ? io.stdout : io.stderr).write(`${asked ? '' : `modloop ${group}: a subcommand is needed\n`}${groupUsage(group)}`)
      return asked ? 0 : 1
    }
    command = findCommand(argv)
    if (!command) throw usageError(argv.length === 0 ? 'no command given' : `unknown command "${argv.filter((a) => !a.startsWith('-')).join(' ')}"`)
    const { values, positionals, tokens } = parseCommandLine(command, argv.slice(command.path.length))
    if (values.help === true) {
      io.stdout.write(`usage: ${command.usage}\n  ${command.summary}\n`)
      return 0
    }
    const run = await command.load()
    return await run({ values, positionals, tokens, io })
  } catch (err) {
    if (isModloopError(err, 'MODLOOP_ERR_USAGE')) {
      io.stderr.write(err.stage === 'parse' ? `${err.message}\n` : `modloop: ${err.message}\n${usageAfter(command)}`)
      return 1
    }
    io.stderr.write(`modloop: ${isModloopError(err) ? `${err.code}: ${err.message}` : describeError(err)}\n`)
    return 1
  }
}

function parseCommandLine(command: Command, args: string[]) {
  let parsed
  try {
    const filled = command.optionalValue ? fillOptionalValues(args, command.optionalValue) : args
    const spelled = command.variadic || command.aliases ? expandVariadic(filled, command.variadic ?? [], command.aliases) : filled
    parsed = parseArgs({ args: spelled, options: { ...command.options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true, tokens: true })
  } catch (err) {
    // parseArgs throws TypeErrors coded ERR_PARSE_ARGS_* for unknown options and missing values.
    throw fromParseArgs(err, command) ?? usageError(describeError(err))
  }
  const { min, max } = command.positionals
  const n = parsed.positionals.length
  if (parsed.values.help !== true && (n < min || n > max)) throw positionalError(command, n)
  return parsed
}

/**
 * A group word (`mods`, `hooks`, …) given alone or with only --help: the words that head
 * subcommands. Without this the default command would take the word as a prompt.
 */
function groupOf(argv: readonly string[]): string | undefined {
  const first = argv[0]
  if (first === undefined || first.startsWith('-')) return undefined
  const isGroup = COMMANDS.some((c) => c.path.length > 1 && c.path[0] === first)
  const rest = argv.slice(1)
  return isGroup && (rest.length === 0 || (rest.length === 1 && (rest[0] === '--help' || rest[0] === '-h'))) ? first : undefined
}

function groupUsage(group: string): string {
  const inGroup = COMMANDS.filter((c) => c.path[0] === group && c.path.length > 1)
  // A group that is only another spelling (`plugins`) lists the commands it stands for, once each.
  const shown = inGroup.some((c) => !c.alias) ? inGroup.filter((c) => !c.alias) : inGroup
  const rows = [...new Set(shown.map((c) => `  ${c.usage}\n      ${c.summary}`))]
  return [`usage: modloop ${group} <subcommand> …`, 'subcommands:', ...rows, ''].join('\n')
}

/**
 * What follows a usage error's message: the command's usage line, but for the default command,
 * whose flags fill a screen: `modloop --help` lists them.
 */
function usageAfter(command: Command | undefined): string {
  if (!command) return usage()
  return command.path.length === 0 ? 'Run modloop --help for the flags.\n' : `usage: ${command.usage}\n`
}

function usage(): string {
  const rows = COMMANDS.filter((c) => !c.alias).map((c) => `  ${c.usage}\n      ${c.summary}`)
  return ['usage:', '  modloop --version', ...rows, ''].join('\n')
}
