import type { ToolOutput, ToolResultContent } from '../../core/tools/tool.js'

/** Roughly four characters a token: the limit is given in tokens, text is measured in characters. */
export const CHARS_PER_TOKEN = 4
export const DEFAULT_MAX_OUTPUT_TOKENS = 25_000
/** A tool may raise its own limit through `_meta["anthropic/maxResultSizeChars"]`, up to this. */
export const MAX_RESULT_CHARS_CAP = 500_000

type Block = { type?: string; text?: string; data?: string; mimeType?: string; uri?: string; name?: string; description?: string; resource?: { uri?: string; mimeType?: string; text?: string; blob?: string } }
interface CallResult { content?: Block[]; isError?: boolean; structuredContent?: unknown; toolResult?: unknown }

/** The output limit in characters: MAX_MCP_OUTPUT_TOKENS, or the tool's own higher limit. */
export function outputLimit(envTokens: string | undefined, toolMaxChars?: number): { chars: number; tokens: number } {
  const parsed = Number(envTokens)
  const tokens = envTokens && Number.isFinite(parsed) && parsed > 0 ? Math.floor(parsed) : DEFAULT_MAX_OUTPUT_TOKENS
  const chars = tokens * CHARS_PER_TOKEN
  if (toolMaxChars === undefined || toolMaxChars <= chars) return { chars, tokens }
  return { chars: Math.min(toolMaxChars, MAX_RESULT_CHARS_CAP), tokens }
}

/** How much of an output over the limit the model is shown beside the path of the whole of it. */
export const PREVIEW_CHARS = 2_000

/**
 * An MCP CallToolResult as a tool output: `result` is its content blocks (the whole
 * CallToolResult when it has none: structured content alone), which settings hooks get as
 * tool_response and SDK consumers as tool_use_result, as Claude Code gives them. `text` is what the model reads — text blocks as
 * they are, embedded text resources with their URI, and a short placeholder for images, audio
 * and binary data. An answer with images the API reads also gives `content`: its blocks in
 * order, each image as an image block, so the model sees the picture, not its placeholder.
 *
 * Text over the limit is written whole by `save.text` (which answers its path), and the model
 * reads where it is and how it starts: cutting it instead would lose the rest for good. Binary
 * data the API cannot take (audio, an image of another type, a blob resource) is written by
 * `save.blob`, and the placeholder says where. Without a saver, or when saving fails, the text is
 * cut at the limit and binary data is only named.
 */
export async function toToolOutput(raw: unknown, tool: string, limit: { chars: number; tokens: number }, save: Savers = {}): Promise<ToolOutput> {
  const result = (raw ?? {}) as CallResult
  const blocks = Array.isArray(result.content) ? result.content : []
  const savedAt = new Map<Block, string>()
  for (const b of blocks) {
    const data = binaryOf(b)
    const path = data && !isImage(b) ? await save.blob?.(data.base64, data.mimeType) : undefined
    if (path) savedAt.set(b, path)
  }
  const text_ = (b: Block) => blockText(b, savedAt.get(b))
  const parts = blocks.map(text_)
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent))
  if (parts.length === 0 && result.toolResult !== undefined) parts.push(typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult))
  let text = parts.join('\n')
  if (text === '') text = result.isError ? `${tool} reported an error without a message` : `(${tool} completed with no output)`
  const isCut = text.length > limit.chars
  if (isCut) {
    const over = `${tool} returned ${text.length.toLocaleString('en-US')} characters, more than the ${limit.chars.toLocaleString('en-US')} allowed (MAX_MCP_OUTPUT_TOKENS=${limit.tokens})`
    const path = await save.text?.(text)
    text = path
      ? `${text.slice(0, Math.min(limit.chars, PREVIEW_CHARS))}\n\n[Output too large: ${over}. The full output was saved to: ${path}\nRead or Grep that file for the parts you need; the above is its start.]`
      : `${text.slice(0, limit.chars)}\n\n[Output truncated: ${over}. Ask for less: narrower arguments, filters or paging.]`
  }
  const content = withImages(blocks, isCut ? text : undefined, text_)
  const output: ToolOutput = { result: blocks.length > 0 ? blocks : raw, text, ...(content ? { content } : {}) }
  return result.isError ? { ...output, isError: true } : output
}

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp'])
const isImage = (b: Block) => b?.type === 'image' && typeof b.data === 'string' && IMAGE_TYPES.has(b.mimeType ?? '')

/**
 * The blocks to send when the answer holds an image: the text around each image kept in place
 * (the API refuses an empty text block, so none is made). Text cut to the output limit goes first
 * as one block, the images after it.
 */
function withImages(blocks: Block[], cutText: string | undefined, blockText: (b: Block) => string): ToolResultContent[] | undefined {
  if (!blocks.some(isImage)) return undefined
  const image = (b: Block): ToolResultContent => ({ type: 'image', source: { type: 'base64', media_type: b.mimeType as 'image/png', data: b.data! } })
  if (cutText !== undefined) return [{ type: 'text', text: cutText }, ...blocks.filter(isImage).map(image)]
  const out: ToolResultContent[] = []
  let pending: string[] = []
  const flush = () => {
    const text = pending.filter((t) => t !== '').join('\n')
    if (text !== '') out.push({ type: 'text', text })
    pending = []
  }
  for (const b of blocks) {
    if (!isImage(b)) {
      pending.push(blockText(b))
      continue
    }
    flush()
    out.push(image(b))
  }
  flush()
  return out
}

export interface Savers {
  /** Writes an output over the limit whole; answers its path, or undefined when it could not. */
  text?(text: string): Promise<string | undefined>
  /** Writes base64 data to a file named for its MIME type; answers its path, or undefined. */
  blob?(base64: string, mimeType: string | undefined): Promise<string | undefined>
}

/** The base64 data of an image, audio or blob resource block. */
function binaryOf(b: Block): { base64: string; mimeType: string | undefined } | undefined {
  if ((b?.type === 'image' || b?.type === 'audio') && typeof b.data === 'string') return { base64: b.data, mimeType: b.mimeType }
  if (b?.type === 'resource' && typeof b.resource?.blob === 'string') return { base64: b.resource.blob, mimeType: b.resource.mimeType }
  return undefined
}

/** Where binary data went, and its size, after a placeholder: the model can read the file. */
const savedNote = (b: Block, path: string | undefined) => (path ? ` ${Math.floor((binaryOf(b)!.base64.replace(/=+$/, '').length * 3) / 4).toLocaleString('en-US')} bytes, saved to ${path}` : '')

function blockText(block: Block, savedAt?: string): string {
  switch (block?.type) {
    case 'text':
      return block.text ?? ''
    case 'image':
      return savedAt ? `[Image: ${block.mimeType ?? 'unknown type'},${savedNote(block, savedAt)}]` : `[Image: ${block.mimeType ?? 'unknown type'}]`
    case 'audio':
      return savedAt ? `[Audio: ${block.mimeType ?? 'unknown type'},${savedNote(block, savedAt)}]` : `[Audio: ${block.mimeType ?? 'unknown type'}]`
    case 'resource': {
      const r = block.resource ?? {}
      const head = `[Resource: ${r.uri ?? 'no uri'}${r.mimeType ? ` (${r.mimeType})` : ''}]`
      if (typeof r.text === 'string') return `${head}\n${r.text}`
      return savedAt ? `${head} binary content,${savedNote(block, savedAt)}` : `${head} binary content not shown`
    }
    case 'resource_link':
      // As Claude Code shows it: the name, the URI to read it by, and what the server says it holds.
      return `[Resource link: ${block.name ?? block.uri ?? 'no uri'}] ${block.uri ?? 'no uri'}${block.description ? ` (${block.description})` : ''}`
    default:
      return JSON.stringify(block)
  }
}

