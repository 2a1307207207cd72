import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { forgetFingerprints, trustStorePath } from '../../mods/permissions/trust-store.js'
import type { CommandRun } from '../command.js'
import { editJson, McpFiles } from './files.js'

// The settings keys that answer the `.mcp.json` question (mods/mcp/settings-choices.ts).
const CHOICES = ['enabledMcpjsonServers', 'disabledMcpjsonServers', 'enableAllProjectMcpServers']

/**
 * `modloop mcp reset-project-choices`: forgets which `.mcp.json` servers were approved or turned
 * off for this project, as Claude Code's command does: the approvals modloop recorded in its trust
 * file, and the choices in `.claude/settings.local.json` and in the project's `.claude.json` entry.
 */
export const mcpResetProjectChoices: CommandRun = async ({ io }) => {
  await forgetFingerprints(trustStorePath({ home: io.env.HOME }, io.env), 'mcpServers', io.cwd)
  const local = join(io.cwd, '.claude', 'settings.local.json')
  if (await stat(local).then(() => true, () => false)) await editJson(local, (json) => { for (const key of CHOICES) delete json[key] })
  const files = await McpFiles.of(io)
  if (await stat(files.userFile).then(() => true, () => false)) {
    await editJson(files.userFile, (json) => { const entry = files.projectEntry(json); for (const key of CHOICES) delete entry[key] })
  }
  io.stdout.write('Project-scoped (.mcp.json) server approvals and rejections stored for this project have been reset.\nYou will be prompted for approval next time you start modloop.\n')
  return 0
}
