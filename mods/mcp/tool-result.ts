import type { ToolOutput } from '../../core/tools/tool.js'

/** Roughly four characters a token: the limit is given in tokens, text is measured in characters. */
export const CHARS_PER_TOKEN = 4
export const DEFAULT_MAX_OUTPUT_TOKENS = 25_000
/** A tool may raise its own limit through `_meta["anthropic/maxResultSizeChars"]`, up to this. */
export const MAX_RESULT_CHARS_CAP = 500_000

type Block = { type?: string; text?: string; mimeType?: string; uri?: string; name?: string; resource?: { uri?: string; mimeType?: string; text?: string; blob?: string } }
interface CallResult { content?: Block[]; isError?: boolean; structuredContent?: unknown; toolResult?: unknown }

/** The output limit in characters: MAX_MCP_OUTPUT_TOKENS, or the tool's own higher limit. */
export function outputLimit(envTokens: string | undefined, toolMaxChars?: number): { chars: number; tokens: number } {
  const parsed = Number(envTokens)
  const tokens = envTokens && Number.isFinite(parsed) && parsed > 0 ? Math.floor(parsed) : DEFAULT_MAX_OUTPUT_TOKENS
  const chars = tokens * CHARS_PER_TOKEN
  if (toolMaxChars === undefined || toolMaxChars <= chars) return { chars, tokens }
  return { chars: Math.min(toolMaxChars, MAX_RESULT_CHARS_CAP), tokens }
}

/**
 * An MCP CallToolResult as a tool output: `result` is the CallToolResult itself (what hooks see as
 * tool_response), `text` what the model reads — text blocks as they are, embedded text resources
 * with their URI, and a short placeholder for images, audio and binary data.
 */
export function toToolOutput(raw: unknown, tool: string, limit: { chars: number; tokens: number }): ToolOutput {
  const result = (raw ?? {}) as CallResult
  const parts = (Array.isArray(result.content) ? result.content : []).map(blockText)
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent))
  if (parts.length === 0 && result.toolResult !== undefined) parts.push(typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult))
  let text = parts.join('\n')
  if (text === '') text = result.isError ? `${tool} reported an error without a message` : `${tool} completed with no output`
  if (text.length > limit.chars) {
    text = `${text.slice(0, limit.chars)}\n\n[Output truncated: ${tool} returned ${text.length.toLocaleString('en-US')} characters, more than the ${limit.chars.toLocaleString('en-US')} allowed (MAX_MCP_OUTPUT_TOKENS=${limit.tokens}). Ask for less: narrower arguments, filters or paging.]`
  }
  return result.isError ? { result: raw, text, isError: true } : { result: raw, text }
}

function blockText(block: Block): string {
  switch (block?.type) {
    case 'text':
      return block.text ?? ''
    case 'image':
      return `[Image: ${block.mimeType ?? 'unknown type'}]`
    case 'audio':
      return `[Audio: ${block.mimeType ?? 'unknown type'}]`
    case 'resource': {
      const r = block.resource ?? {}
      const head = `[Resource: ${r.uri ?? 'no uri'}${r.mimeType ? ` (${r.mimeType})` : ''}]`
      return typeof r.text === 'string' ? `${head}\n${r.text}` : `${head} binary content not shown`
    }
    case 'resource_link':
      return `[Resource link: ${block.uri ?? 'no uri'}${block.name ? ` (${block.name})` : ''}${block.mimeType ? ` ${block.mimeType}` : ''}]`
    default:
      return JSON.stringify(block)
  }
}
