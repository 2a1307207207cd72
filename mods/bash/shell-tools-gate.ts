import type { ModApi } from '../../core/mod/api.js'

const SHELL_TOOLS = ['BashOutput', 'KillShell']

/**
 * Whether the session offers BashOutput and KillShell. Claude Code gives the model TaskStop alone
 * for background work and points it at Read on the output file; the older pair stays for a session
 * that asks for it (the bash mod's `shellTools`, or `allowedTools` / `tools` naming one) and for
 * one without the tasks mod, where nothing else could read or stop a background shell.
 */
export function offersShellTools($: ModApi, option: boolean | undefined, hasTasks: boolean): boolean {
  if (option !== undefined) return option
  if (!hasTasks) return true
  const flags = $.settings.read({ source: 'flag' })
  return [flags.allowedTools, flags.tools].some((list) => Array.isArray(list) && list.some((t) => SHELL_TOOLS.includes(String(t))))
}
