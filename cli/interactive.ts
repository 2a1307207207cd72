import { resolve } from 'node:path'
import type { CommandRun } from './command.js'
import { queryOptions } from './headless.js'
import { usageError } from './usage-error.js'

/**
 * `modloop` with no `-p`: headless when `-p` is given, otherwise the interactive session of the
 * terminal-ui mod, which needs a terminal on both standard input and output.
 */
export const defaultCommand: CommandRun = async (ctx) => {
  if (ctx.values.print === true) return (await import('./headless.js')).headless(ctx)
  return interactive(ctx)
}

export const interactive: CommandRun = async ({ values, positionals, io }) => {
  const stdin = io.stdin as NodeJS.ReadStream | undefined
  const stdout = io.stdout as NodeJS.WriteStream
  if (!stdin?.isTTY || !stdout.isTTY || typeof stdin.setRawMode !== 'function') {
    throw usageError('the interactive session needs a terminal on standard input and output: pass -p "<prompt>" to run headless')
  }
  const options = queryOptions(values, io)
  const { runTerminalUi } = await import('../mods/terminal-ui/run.js')
  return runTerminalUi({ ...options, cwd: resolve(io.cwd, options.cwd ?? '.') }, { stdin, stdout, env: io.env }, positionals.join(' ') || undefined)
}
