import type { ImageBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { ModApi } from '../../core/mod/api.js'
import type { GetPromptResult, Prompt, ServerConnection } from './connection.js'
import { mcpToolName } from './tool-name.js'
import { describeError } from '../../core/errors.js'
import { extensionOf } from '../_shared/session-dir.js'

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

/** Writes a prompt's binary content beside the session's transcript; answers its path, or undefined. */
export type SaveBlob = (file: string, bytes: Buffer, what: string) => Promise<string | undefined>

type PromptContent = GetPromptResult['messages'][number]['content']

// The image types the model reads; others are only saved and named.
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp'])

/**
 * What a command expands to: the words typed after it fill the prompt's arguments one each, in
 * order (words past the last argument are dropped, as in Claude Code). The text of every message
 * the server answers is joined; as in Claude Code, its images go to the model too, each also saved
 * and named, a resource is headed by its server and URI, and binary content is saved and named.
 */
export async function expandPrompt(command: PromptCommand, typed: string, save: SaveBlob): Promise<{ prompt: string; images?: ImageBlockParam[] }> {
  const result = await command.conn.getPrompt(command.prompt.name, fillArguments(command.prompt, typed))
  const images: ImageBlockParam[] = []
  let saved = 0
  const saveAs = (base64: string, mimeType: string | undefined) => {
    const bytes = Buffer.from(base64, 'base64')
    const what = `${mimeType ?? 'no type'}, ${bytes.length} bytes`
    const file = `mcp-${command.conn.name}-blob-${Date.now()}-${++saved}.${extensionOf(mimeType)}`
    return save(file, bytes, `binary content (${what})`).then((path) => ({ path, what }))
  }
  const texts = await Promise.all(result.messages.map(({ content }) => contentText(command.conn.name, content, images, saveAs)))
  return { prompt: texts.join('\n\n'), ...(images.length ? { images } : {}) }
}

/** The prompt's arguments filled by the words typed, one each, in order. */
function fillArguments(prompt: Prompt, typed: string): Record<string, string> {
  const words = typed.trim() === '' ? [] : typed.trim().split(/\s+/)
  const args: Record<string, string> = {}
  for (const [i, { name }] of (prompt.arguments ?? []).entries()) {
    if (words[i] !== undefined) args[name] = words[i]
  }
  return args
}

/**
 * Claude Code's answer to a command typed without a required argument, given before the server is
 * asked (its own error would name a schema, not the command); undefined when all are there.
 */
export function missingArguments(command: PromptCommand, typed: string): string | undefined {
  const args = fillArguments(command.prompt, typed)
  const names = (command.prompt.arguments ?? []).map((a) => a.name)
  const missing = (command.prompt.arguments ?? []).filter((a) => a.required && args[a.name] === undefined).map((a) => a.name)
  if (missing.length === 0) return undefined
  const name = mcpToolName(command.conn.name, command.prompt.name)
  return `Error: Missing required argument${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}. Usage: /${name} ${names.join(' ')}`
}

async function contentText(server: string, content: PromptContent, images: ImageBlockParam[], save: (base64: string, mimeType: string | undefined) => Promise<{ path?: string; what: string }>): Promise<string> {
  switch (content.type) {
    case 'text':
      return content.text
    case 'image': {
      const { path, what } = await save(content.data, content.mimeType)
      if (!IMAGE_TYPES.has(content.mimeType)) return `[Image: ${what}, not a type the model reads${path ? `; saved to ${path}` : ''}]`
      images.push({ type: 'image', source: { type: 'base64', media_type: content.mimeType as 'image/png', data: content.data } })
      return path ? `[Image: source: ${path}]` : `[Image: ${content.mimeType}]`
    }
    case 'audio': {
      const { path, what } = await save(content.data, content.mimeType)
      return `[Audio: ${what}${path ? `, saved to ${path}` : ''}]`
    }
    case 'resource': {
      const r = content.resource
      const head = `[Resource from ${server} at ${r.uri}]`
      if ('text' in r) return `${head} ${r.text}`
      const { path, what } = await save(r.blob, r.mimeType)
      return path ? `${head} Binary content (${what}) saved to ${path}` : `${head} Binary content (${what}), not saved`
    }
    case 'resource_link':
      return `[Resource link: ${content.name}] ${content.uri}${content.description ? ` (${content.description})` : ''}`
    default:
      return `[${(content as { type: string }).type}]`
  }
}
