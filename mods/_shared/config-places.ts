import { homedir } from 'node:os'
import { join } from 'node:path'
import { claudeHome } from '../../runtime/plugin-store/files.js'

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
  return join(claudeHome({ CLAUDE_CONFIG_DIR: env('CLAUDE_CONFIG_DIR'), HOME: env('HOME') }), 'settings.json')
}

/** The project's own settings nobody commits, `.claude/settings.local.json`. */
export function localSettingsFile(cwd: string): string {
  return join(cwd, '.claude', 'settings.local.json')
}
