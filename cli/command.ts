import type { ParseArgsConfig } from 'node:util'
import type { Io } from './io.js'

export type OptionSpecs = NonNullable<ParseArgsConfig['options']>
export type Values = Record<string, string | boolean | (string | boolean)[] | undefined>

export interface CommandContext {
  values: Values
  positionals: string[]
  /** The options in the order given, as parseArgs reports them (`tokens: true`). */
  tokens?: readonly { kind: string }[]
  io: Io
}

export type CommandRun = (ctx: CommandContext) => Promise<number>

/**
 * One entry of the command table. `path` is the words that select it (`['mods', 'list']`; an
 * empty path is the default command). `load` imports the implementation only when the command
 * runs, so a cheap command never pays for an expensive one's imports.
 */
export interface Command {
  path: readonly string[]
  summary: string
  usage: string
  options: OptionSpecs
  positionals: { min: number; max: number }
  /** Options that take several values in a row, as Claude Code's do (cli/variadic-args.ts). */
  variadic?: readonly string[]
  /** Other spellings of options: alias → the option's name. */
  aliases?: Readonly<Record<string, string>>
  /** Options whose value may be left out, by each spelling (`-w` and `--worktree` → `worktree`) (cli/optional-value.ts). */
  optionalValue?: Readonly<Record<string, string>>
  load: () => Promise<CommandRun>
  /** Another spelling of a listed command: it runs, and usage lists only the command. */
  alias?: boolean
}
