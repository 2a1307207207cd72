import { homedir } from 'node:os'
import { join } from 'node:path'

type Env = (name: string) => string | undefined

/**
 * Claude Code's global config, `~/.claude.json` (in CLAUDE_CONFIG_DIR when that is set): the
 * preferences its `/config` keeps outside settings.json, `autoCompactEnabled` among them.
 */
export function globalConfigFile(env: Env): string {
  return join(env('CLAUDE_CONFIG_DIR') || env('HOME') || homedir(), '.claude.json')
}

/** The user's settings file, `~/.claude/settings.json` (CLAUDE_CONFIG_DIR's `settings.json` when set). */
export function userSettingsFile(env: Env): string {
  return join(env('CLAUDE_CONFIG_DIR') || join(env('HOME') || homedir(), '.claude'), 'settings.json')
}

/** The project's own settings nobody commits, `.claude/settings.local.json`. */
export function localSettingsFile(cwd: string): string {
  return join(cwd, '.claude', 'settings.local.json')
}
