import type { ModApi } from '../../core/mod/api.js'
import type { GetPromptResult, Prompt, ServerConnection } from './connection.js'
import { mcpToolName } from './tool-name.js'
import { describeError } from '../../core/errors.js'

/** A slash command standing for one server prompt. */
export interface PromptCommand {
  conn: ServerConnection
  prompt: Prompt
}

/**
 * Registers each prompt of a connected server as the slash command `/mcp__<server>__<prompt>`,
 * as Claude Code does; `commands` maps each registered name to its prompt. A name already there is
 * pointed at the server's current prompt (a reconnect) without registering it again.
 */
export async function syncPrompts($: ModApi, conn: ServerConnection, commands: Map<string, PromptCommand>): Promise<void> {
  for (const prompt of conn.prompts) {
    const name = mcpToolName(conn.name, prompt.name)
    const known = commands.get(name)
    if (known && known.conn.name !== conn.name) continue
    commands.set(name, { conn, prompt })
    if (known) continue
    const hint = (prompt.arguments ?? []).map((a) => `<${a.name}>`).join(' ')
    try {
      await $.command.register({ name, description: prompt.description?.trim() || `${prompt.name} (MCP server ${conn.name})`, ...(hint ? { argumentHint: hint } : {}), kind: 'prompt' })
    } catch (err) {
      commands.delete(name)
      $.log.warn(`/${name} could not be registered: ${describeError(err)}`)
    }
  }
}

/**
 * The prompt text a command expands to: the words typed after it fill the prompt's arguments one
 * each, in order (words past the last argument are dropped, as in Claude Code), and the text of
 * every message the server answers is joined.
 */
export async function expandPrompt(command: PromptCommand, typed: string): Promise<string> {
  const names = (command.prompt.arguments ?? []).map((a) => a.name)
  const words = typed.trim() === '' ? [] : typed.trim().split(/\s+/)
  const args: Record<string, string> = {}
  names.forEach((name, i) => {
    if (words[i] !== undefined) args[name] = words[i]
  })
  const result = await command.conn.getPrompt(command.prompt.name, args)
  return messagesText(result)
}

function messagesText(result: GetPromptResult): string {
  return result.messages.map(({ content }) => {
    if (content.type === 'text') return content.text
    if (content.type === 'resource' && 'text' in content.resource) return String(content.resource.text)
    return `[${content.type}]`
  }).join('\n\n')
}
