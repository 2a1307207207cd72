import { mkdir } from 'node:fs/promises'
import { pluginDataDir } from '../_shared/plugin-data.js'
import type { PromptCommand } from './definitions.js'
import { renderBody } from './render-body.js'
import { expandShell, type ShellContext } from './shell-expansion.js'

export interface ExpandContext extends ShellContext {
  sessionId: string
  projectDir: string
  /** Claude Code's config directory (`~/.claude`, or `$CLAUDE_CONFIG_DIR`): a plugin's data directory is under it. */
  configDir: string
}

/**
 * The prompt a command or skill becomes: placeholders first, then the embedded shell commands
 * (so `!git log $0` sees the argument, and no command output is read as a placeholder). `@file`
 * references stay in the text: the loop's mention pass attaches them. A skill's text says where
 * the skill lives, since its instructions may name files beside SKILL.md.
 */
export async function expandPrompt(def: PromptCommand, args: string, ctx: ExpandContext): Promise<string> {
  const vars: Record<string, string> = {
    CLAUDE_SESSION_ID: ctx.sessionId,
    CLAUDE_PROJECT_DIR: ctx.projectDir,
    ...(def.dir ? { CLAUDE_SKILL_DIR: def.dir } : {}),
    ...(def.plugin ? { CLAUDE_PLUGIN_ROOT: def.plugin.root, CLAUDE_PLUGIN_DATA: pluginDataDir(ctx.configDir, def.plugin) } : {}),
  }
  // Made on first reference, as for the plugin's hooks, so a `!` line may write into it.
  if (vars.CLAUDE_PLUGIN_DATA && def.body.includes('${CLAUDE_PLUGIN_DATA}')) await mkdir(vars.CLAUDE_PLUGIN_DATA, { recursive: true }).catch(() => {})
  const text = await expandShell(renderBody(def.body, args, vars, def.argumentNames), ctx)
  return def.kind === 'skill' ? `Base directory for this skill: ${def.dir}\n\n${text}` : text
}
